"""Plausible wrong optimizations: drafts written as a model writes an "optimization" of a library
function, each wrong only on some inputs, of a kind the library's own tests may never pass.

Each draft is the full replacement source of its function (with any imports it needs; it may use
the names its module defines, as the original does) and is labelled with one class of CLASSES.
`benchmarks/mutation.py --kind plausible` puts each through the same "really wrong" filter as its
ast mutants (the library's tests, then the host's differential check); a draft neither shows wrong
is judged by its `witness`, a call whose two results are written beside it (run on both functions
by the benchmark); a draft no method shows wrong is dropped as equivalent. Each kept draft then
goes to coderefine's checker as a mutant does.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

CLASSES = {
    "list-vs-iterator": "a list returned where the original returns an iterator, or the reverse",
    "one-too-many": "one item too many taken from an iterator argument",
    "mapping-as-iterable": "a mapping read as an iterable of its keys (or by position), or its values taken as counts",
    "option-ignored": "a keyword option dropped, or its default hard-coded",
    "size-fast-path": "a fast path past a size threshold that drops or changes part of the result",
    "shared-iterator": "one iterator read by two consumers, or an iterator argument read twice",
    "kind-lost": "a list (or a plain dict) where the original keeps the caller's kind",
    "self-state": "self's state changed or shared with a result where the original keeps it apart, or cached on it",
    "order-assumed": "an assumption about the items: that they come in a set's order, that they are new or distinct",
    "kind-assumed": "an argument taken to be of one kind (a set) where the original takes any iterable",
    "error-changed": "another exception, or none, where the original raises: a try that catches too much",
    "argument-shared": "a part of an argument shared with the result where the original copies it, or an argument "
    "left whole where the original changes it",
    "text-vs-number": "numbers compared or raised as text where the original reads them as numbers, or the reverse",
    "part-dropped": "a part of the value left out of (or added to) a hash, a key, an ordering or a rendering",
    "empty-vs-none": "an empty value taken for a missing one (None), or the reverse",
    "index-edge": "a negative index or a slice handled where the original refuses it, or the reverse",
    "lenient-parse": "input the original rejects accepted by a fast path or a cleanup (a prefix, spaces, zeros)",
    "strict-parse": "input the original accepts refused by a stricter reader (int(), a pattern, ASCII digits only)",
    "not-implemented": "False or an exception where the original returns NotImplemented for another kind of operand",
    "float-rounding": "a float computed by other operations: the same value but for its last bits",
    "bound-edge": "a half-open range's bound taken as closed (<= for <), or the reverse",
    "null-range": "a null range (begin >= end) taken as a proper one, or the reverse",
    "identity-assumed": "an object taken to equal itself (an identity fast path), though a part of it (a NaN) does not",
}


@dataclass(frozen=True)
class Witness:
    """An input that shows a draft wrong: `call` calls the function by its name (a method on an
    instance the call builds); `original` and `draft` are what each gives, as an expression of the
    value (an iterator is compared by its items) or `raises` and the exception's type name.
    `collections`, `itertools` and `operator` may be named without an import."""

    call: str
    original: str
    draft: str


@dataclass(frozen=True)
class Draft:
    kind: str  # a key of CLASSES
    description: str
    source: str
    witness: Witness | None = None

    def __post_init__(self) -> None:
        if self.kind not in CLASSES:
            raise ValueError(f"unknown class {self.kind!r}")


def draft(kind: str, description: str, source: str, witness: Witness | None = None) -> Draft:
    return Draft(kind, description, textwrap.dedent(source).strip() + "\n", witness)


# -- funcy 2.1 ------------------------------------------------------------------------------
# funcy/colls.py imports (among others) chain, tee, defaultdict, Mapping, Set, Iterable, Iterator,
# EMPTY, make_func, make_pred, take, xmap, xfilter; funcy/seqs.py: islice, accumulate, deque,
# operator, Sequence, EMPTY, make_func, make_pred, _filter, _reductions, map.

FUNCY: dict[str, tuple[Draft, ...]] = {
    "join": (
        draft(
            "shared-iterator",
            "the tee() dropped: an iterator of collections loses its first one to the peek",
            '''
            def join(colls):
                """Joins several collections of same type into one."""
                it = iter(colls)
                try:
                    dest = next(it)
                except StopIteration:
                    return None
                cls = dest.__class__
                if isinstance(dest, (bytes, str)):
                    return cls().join(colls)
                elif isinstance(dest, Mapping):
                    result = dest.copy()
                    for d in it:
                        result.update(d)
                    return result
                elif isinstance(dest, Set):
                    return dest.union(*it)
                elif isinstance(dest, (Iterator, range)):
                    return chain.from_iterable(colls)
                elif isinstance(dest, Iterable):
                    return cls(chain.from_iterable(colls))
                else:
                    raise TypeError("Don't know how to join %s" % cls.__name__)
            ''',
        ),
        draft(
            "kind-lost",
            "the dicts merged into a plain dict: a defaultdict or an OrderedDict comes back a dict",
            '''
            def join(colls):
                """Joins several collections of same type into one."""
                colls = list(colls)
                if not colls:
                    return None
                dest = colls[0]
                if isinstance(dest, (bytes, str)):
                    return dest.__class__().join(colls)
                if isinstance(dest, Mapping):
                    result = {}
                    for d in colls:
                        result.update(d)
                    return result
                if isinstance(dest, Set):
                    return dest.union(*colls[1:])
                if isinstance(dest, (Iterator, range)):
                    return chain.from_iterable(colls)
                if isinstance(dest, Iterable):
                    return dest.__class__(chain.from_iterable(colls))
                raise TypeError("Don't know how to join %s" % dest.__class__.__name__)
            ''',
        ),
        draft(
            "size-fast-path",
            "past 64 sequences one list is built: tuples come back as a list",
            '''
            def join(colls):
                """Joins several collections of same type into one."""
                colls = list(colls)
                if not colls:
                    return None
                dest = colls[0]
                cls = dest.__class__
                if isinstance(dest, (bytes, str)):
                    return cls().join(colls)
                elif isinstance(dest, Mapping):
                    result = dest.copy()
                    for d in colls[1:]:
                        result.update(d)
                    return result
                elif isinstance(dest, Set):
                    return dest.union(*colls[1:])
                elif isinstance(dest, (Iterator, range)):
                    return chain.from_iterable(colls)
                elif isinstance(dest, Iterable):
                    if len(colls) > 64:
                        # many parts: one list.extend pass is cheaper than a generator
                        result = []
                        for part in colls:
                            result.extend(part)
                        return result
                    return cls(chain.from_iterable(colls))
                else:
                    raise TypeError("Don't know how to join %s" % cls.__name__)
            ''',
        ),
        draft(
            "list-vs-iterator",
            "ranges are sized, so they are joined into a list instead of a lazy chain",
            '''
            def join(colls):
                """Joins several collections of same type into one."""
                colls, colls_copy = tee(colls)
                it = iter(colls_copy)
                try:
                    dest = next(it)
                except StopIteration:
                    return None
                cls = dest.__class__
                if isinstance(dest, (bytes, str)):
                    return cls().join(colls)
                elif isinstance(dest, Mapping):
                    result = dest.copy()
                    for d in it:
                        result.update(d)
                    return result
                elif isinstance(dest, Set):
                    return dest.union(*it)
                elif isinstance(dest, range):
                    return [x for part in colls for x in part]
                elif isinstance(dest, Iterator):
                    return chain.from_iterable(colls)
                elif isinstance(dest, Iterable):
                    return cls(chain.from_iterable(colls))
                else:
                    raise TypeError("Don't know how to join %s" % cls.__name__)
            ''',
        ),
    ),
    "join_with": (
        draft(
            "option-ignored",
            "strict dropped: a single dict is returned as it is even with strict=True",
            '''
            def join_with(f, dicts, strict=False):
                """Joins several dicts, combining values with given function."""
                dicts = list(dicts)
                if not dicts:
                    return {}
                if len(dicts) == 1:
                    return dicts[0]
                lists = {}
                for c in dicts:
                    for k, v in iteritems(c):
                        lists.setdefault(k, []).append(v)
                if f is not list:
                    for k, v in lists.items():
                        lists[k] = f(v)
                return lists
            ''',
        ),
        draft(
            "mapping-as-iterable",
            "sum() done with Counter addition, which takes the values as counts and drops keys "
            "whose sum is zero or negative",
            '''
            from collections import Counter

            def join_with(f, dicts, strict=False):
                """Joins several dicts, combining values with given function."""
                dicts = list(dicts)
                if not dicts:
                    return {}
                elif not strict and len(dicts) == 1:
                    return dicts[0]
                if f is sum and all(isinstance(d, Mapping) for d in dicts):
                    total = Counter()
                    for d in dicts:
                        total += Counter(d)
                    return dict(total)
                lists = {}
                for c in dicts:
                    for k, v in iteritems(c):
                        if k in lists:
                            lists[k].append(v)
                        else:
                            lists[k] = [v]
                if f is not list:
                    for k, v in iteritems(lists):
                        lists[k] = f(v)
                return lists
            ''',
        ),
        draft(
            "shared-iterator",
            "the first two dicts peeked to spot the one-dict case, then the argument read again",
            '''
            def join_with(f, dicts, strict=False):
                """Joins several dicts, combining values with given function."""
                it = iter(dicts)
                first = next(it, None)
                if first is None:
                    return {}
                if not strict and next(it, None) is None:
                    return first
                lists = {}
                for c in dicts:
                    for k, v in iteritems(c):
                        lists.setdefault(k, []).append(v)
                if f is not list:
                    for k in lists:
                        lists[k] = f(lists[k])
                return lists
            ''',
        ),
    ),
    "is_distinct": (
        draft(
            "size-fast-path",
            "past 1000 items an early-exit loop that calls key as given (an index or a set as key fails)",
            '''
            def is_distinct(coll, key=EMPTY):
                """Checks if all elements in the collection are different."""
                if len(coll) > 1000:
                    seen = set()
                    for item in coll:
                        k = item if key is EMPTY else key(item)
                        if k in seen:
                            return False
                        seen.add(k)
                    return True
                if key is EMPTY:
                    return len(coll) == len(set(coll))
                return len(coll) == len(set(xmap(key, coll)))
            ''',
            Witness("is_distinct(['ab', 'cb'] * 501, key=0)", "False", "raises TypeError"),
        ),
        draft(
            "option-ignored",
            "sets and dicts are taken as distinct already, whatever key says",
            '''
            def is_distinct(coll, key=EMPTY):
                """Checks if all elements in the collection are different."""
                if isinstance(coll, (Set, Mapping)):
                    return True
                if key is EMPTY:
                    return len(coll) == len(set(coll))
                return len(coll) == len(set(xmap(key, coll)))
            ''',
        ),
    ),
    "one": (
        draft(
            "one-too-many",
            "a counting loop that stops one item after the second match",
            '''
            def one(pred, seq=EMPTY):
                """Checks whether exactly one item in seq passes pred (or is truthy)."""
                if seq is EMPTY:
                    return one(bool, pred)
                pred = make_pred(pred)
                matches = 0
                for item in seq:
                    if matches > 1:
                        break
                    if pred(item):
                        matches += 1
                return matches == 1
            ''',
        ),
        draft(
            "size-fast-path",
            "past 512 items a sum() over the sequence with pred called as given (None, a set fail)",
            '''
            def one(pred, seq=EMPTY):
                """Checks whether exactly one item in seq passes pred (or is truthy)."""
                if seq is EMPTY:
                    return one(bool, pred)
                if isinstance(seq, (list, tuple)) and len(seq) > 512:
                    return sum(1 for item in seq if pred(item)) == 1
                return len(take(2, xfilter(pred, seq))) == 1
            ''',
            Witness("one({1, 2}, [0] * 600 + [1])", "True", "raises TypeError"),
        ),
    ),
    "update_in": (
        draft(
            "kind-lost",
            "dict() instead of .copy(): a defaultdict or an OrderedDict on the path comes back a dict",
            '''
            def update_in(coll, path, update, default=None):
                """Creates a copy of coll with a value updated at path."""
                if not path:
                    return update(coll)
                if isinstance(coll, list):
                    copy = list(coll)
                    copy[path[0]] = update_in(copy[path[0]], path[1:], update, default)
                    return copy
                copy = dict(coll)
                current_default = {} if len(path) > 1 else default
                copy[path[0]] = update_in(copy.get(path[0], current_default), path[1:], update, default)
                return copy
            ''',
        ),
        draft(
            "option-ignored",
            "default passed on only at the first level: a missing key deeper down gets None",
            '''
            def update_in(coll, path, update, default=None):
                """Creates a copy of coll with a value updated at path."""
                if not path:
                    return update(coll)
                elif isinstance(coll, list):
                    copy = coll[:]
                    copy[path[0]] = update_in(copy[path[0]], path[1:], update)
                    return copy
                else:
                    copy = coll.copy()
                    current_default = {} if len(path) > 1 else default
                    copy[path[0]] = update_in(copy.get(path[0], current_default), path[1:], update)
                    return copy
            ''',
        ),
    ),
    "del_in": (
        draft(
            "kind-lost",
            "the copy made with list() or dict(): a tuple becomes a list, a defaultdict a dict",
            '''
            def del_in(coll, path):
                """Creates a copy of coll with a nested key or index deleted."""
                if not path:
                    return coll
                try:
                    next_coll = coll[path[0]]
                except (KeyError, IndexError):
                    return coll
                coll_copy = list(coll) if isinstance(coll, (list, tuple)) else dict(coll)
                if len(path) == 1:
                    del coll_copy[path[0]]
                else:
                    coll_copy[path[0]] = del_in(next_coll, path[1:])
                return coll_copy
            ''',
        ),
        draft(
            "size-fast-path",
            "past 1000 items a list is rebuilt from two slices, which is wrong for index -1",
            '''
            def del_in(coll, path):
                """Creates a copy of coll with a nested key or index deleted."""
                if not path:
                    return coll
                try:
                    next_coll = coll[path[0]]
                except (KeyError, IndexError):
                    return coll
                if len(path) == 1 and isinstance(coll, list) and len(coll) > 1000:
                    index = path[0]
                    return coll[:index] + coll[index + 1 :]
                coll_copy = copy(coll)
                if len(path) == 1:
                    del coll_copy[path[0]]
                else:
                    coll_copy[path[0]] = del_in(next_coll, path[1:])
                return coll_copy
            ''',
            Witness("len(del_in(list(range(1001)), [-1]))", "1000", "2001"),
        ),
    ),
    "where": (
        draft(
            "list-vs-iterator",
            "the matches collected into a list",
            '''
            def where(mappings, **cond):
                """Iterates over mappings containing all pairs in cond."""
                items = cond.items()
                return [m for m in mappings if all(k in m and m[k] == v for k, v in items)]
            ''',
        ),
    ),
    "nth": (
        draft(
            "one-too-many",
            "an enumerate loop for iterators that breaks only on the item after the n-th",
            '''
            def nth(n, seq):
                """Returns nth item in the sequence or None if no such item exists."""
                try:
                    return seq[n]
                except IndexError:
                    return None
                except TypeError:
                    result = None
                    for index, item in enumerate(seq):
                        if index > n:
                            break
                        result = item if index == n else None
                    return result
            ''',
        ),
        draft(
            "mapping-as-iterable",
            "only sequences are indexed; anything else (a dict too) is walked, giving its n-th key",
            '''
            def nth(n, seq):
                """Returns nth item in the sequence or None if no such item exists."""
                if isinstance(seq, Sequence):
                    try:
                        return seq[n]
                    except IndexError:
                        return None
                return next(islice(seq, n, None), None)
            ''',
        ),
    ),
    "last": (
        draft(
            "shared-iterator",
            "an empty check peeks one item off an iterator, then reads the iterator again",
            '''
            def last(seq):
                """Returns the last item in the sequence or iterator.
                Returns None if the sequence is empty."""
                try:
                    return seq[-1]
                except IndexError:
                    return None
                except TypeError:
                    it = iter(seq)
                    if next(it, EMPTY) is EMPTY:
                        return None
                    return deque(seq, maxlen=1)[0]
            ''',
        ),
        draft(
            "mapping-as-iterable",
            "only sequences are indexed; a dict is walked and its last key returned",
            '''
            def last(seq):
                """Returns the last item in the sequence or iterator.
                Returns None if the sequence is empty."""
                if isinstance(seq, Sequence):
                    return seq[-1] if seq else None
                item = None
                for item in seq:
                    pass
                return item
            ''',
        ),
    ),
    "lsplit": (
        draft(
            "shared-iterator",
            "two comprehensions over seq: an iterator's items all go to the first",
            '''
            def lsplit(pred, seq):
                """Splits items which pass the predicate from the ones that don't.
                Returns a pair (passed, failed) of respective lists."""
                pred = make_pred(pred)
                return [item for item in seq if pred(item)], [item for item in seq if not pred(item)]
            ''',
        ),
        draft(
            "size-fast-path",
            "past 1000 items the predicate is applied as given (a set, None or a regex fails)",
            '''
            def lsplit(pred, seq):
                """Splits items which pass the predicate from the ones that don't.
                Returns a pair (passed, failed) of respective lists."""
                if isinstance(seq, list) and len(seq) > 1000:
                    flags = [bool(pred(x)) for x in seq]
                    return ([x for x, f in zip(seq, flags) if f], [x for x, f in zip(seq, flags) if not f])
                pred = make_pred(pred)
                yes, no = [], []
                for item in seq:
                    if pred(item):
                        yes.append(item)
                    else:
                        no.append(item)
                return yes, no
            ''',
            Witness("lsplit({1}, [0, 1] * 501)", "([1] * 501, [0] * 501)", "raises TypeError"),
        ),
    ),
    "reductions": (
        draft(
            "list-vs-iterator",
            "the intermediate results collected into a list when acc is given",
            '''
            def reductions(f, seq, acc=EMPTY):
                """Yields intermediate reductions of seq by f."""
                if acc is EMPTY:
                    return accumulate(seq) if f is operator.add else accumulate(seq, f)
                result = []
                for x in seq:
                    acc = f(acc, x)
                    result.append(acc)
                return result
            ''',
        ),
    ),
    "keep": (
        draft(
            "list-vs-iterator",
            "the truthy results collected into a list",
            '''
            def keep(f, seq=EMPTY):
                """Maps seq with f and iterates truthy results.
                Simply iterates truthy values in one argument version."""
                if seq is EMPTY:
                    return [x for x in f if x]
                return [x for x in map(f, seq) if x]
            ''',
        ),
    ),
}


# -- fnc 0.5.3 ------------------------------------------------------------------------------
# fnc's modules import fnc itself (fnc.iteratee, fnc.aspath, fnc.get, ...); mappings.py: Mapping,
# Sequence, UNSET, Sentinel, iterate, _get; sequences.py: Container, deque, partial, itertools,
# filter (fnc's own), groupby; helpers.py: Mapping, Sequence; utilities.py: fnc, Sentinel,
# RE_PATH_KEY_DELIM, _parse_path_token.

FNC: dict[str, tuple[Draft, ...]] = {
    "iterate": (
        draft(
            "mapping-as-iterable",
            "only a dict gives its items(); a ChainMap, a mappingproxy or a UserDict gives its keys",
            '''
            def iterate(mapping):
                """Return an iterator over an object's key-value pairs."""
                if isinstance(mapping, dict):
                    return mapping.items()
                if isinstance(mapping, Sequence):
                    return enumerate(mapping)
                return iter(mapping)
            ''',
        ),
        draft(
            "list-vs-iterator",
            "a sequence's pairs built as a list once instead of an enumerate iterator",
            '''
            def iterate(mapping):
                """Return an iterator over an object's key-value pairs."""
                if isinstance(mapping, Mapping) or callable(getattr(mapping, "items", None)):
                    return mapping.items()
                if isinstance(mapping, Sequence):
                    return list(zip(range(len(mapping)), mapping))
                if callable(getattr(mapping, "keys", None)) and hasattr(mapping, "__getitem__"):
                    return ((key, mapping[key]) for key in mapping.keys())
                return iter(mapping)
            ''',
        ),
    ),
    "get": (
        draft(
            "option-ignored",
            "the UNSET default (has() asks for a KeyError with it) treated as any other default",
            '''
            def get(path, obj, *, default=None):
                """Return the value at path in obj, or default."""
                result = obj
                for key in fnc.aspath(path):
                    result = _get(key, result, default=Sentinel)
                    if result is Sentinel:
                        return default
                return result
            ''',
        ),
        draft(
            "size-fast-path",
            "a path string past 32 characters split on dots only: its [n] items and escaped dots are lost",
            '''
            def get(path, obj, *, default=None):
                """Return the value at path in obj, or default."""
                if default is UNSET:
                    sentinel = UNSET
                else:
                    sentinel = Sentinel
                if isinstance(path, str) and len(path) > 32:
                    keys = path.split(".")
                else:
                    keys = fnc.aspath(path)
                result = obj
                for key in keys:
                    result = _get(key, result, default=sentinel)
                    if result is sentinel:
                        result = default
                        break
                return result
            ''',
            Witness("get('x' * 31 + '[0]', {'x' * 31: [7]})", "7", "None"),
        ),
    ),
    "has": (
        draft(
            "size-fast-path",
            'on a dict past 32 keys a plain-key path is looked up with `in`: "1" no longer finds key 1',
            '''
            def has(path, obj):
                """Return whether path exists in obj."""
                if isinstance(obj, dict) and len(obj) > 32 and isinstance(path, str) and "." not in path:
                    if "[" not in path:
                        return path in obj
                try:
                    get(path, obj, default=UNSET)
                    return True
                except KeyError:
                    return False
            ''',
        ),
        draft(
            "option-ignored",
            "get() called with its default (None): a key whose value is None counts as missing",
            '''
            def has(path, obj):
                """Return whether path exists in obj."""
                return get(path, obj) is not None
            ''',
            Witness("has('a', {'a': None})", "True", "False"),
        ),
    ),
    "pick": (
        draft(
            "shared-iterator",
            "an all-keys-present fast path for dicts reads the keys, and the loop reads them again",
            '''
            def pick(keys, obj):
                """Return a dict composed of the key-value pairs of obj picked by keys."""
                if isinstance(obj, dict) and all(key in obj for key in keys):
                    return {key: obj[key] for key in keys}
                result = {}
                for key in keys:
                    value = _get(key, obj, default=Sentinel)
                    if value is not Sentinel:
                        result[key] = value
                return result
            ''',
        ),
        draft(
            "size-fast-path",
            'past 64 keys a dict comprehension with `in`: "1" no longer picks key 1',
            '''
            def pick(keys, obj):
                """Return a dict composed of the key-value pairs of obj picked by keys."""
                if isinstance(obj, dict) and isinstance(keys, (list, tuple)) and len(keys) > 64:
                    return {key: obj[key] for key in keys if key in obj}
                result = {}
                for key in keys:
                    value = _get(key, obj, default=Sentinel)
                    if value is not Sentinel:
                        result[key] = value
                return result
            ''',
            Witness("pick(['1'] * 65, {1: 'a'})", "{'1': 'a'}", "{}"),
        ),
    ),
    "omit": (
        draft(
            "size-fast-path",
            "past 16 keys they are put in a set first: a string of keys stops matching substrings, "
            "an iterator of keys has no len()",
            '''
            def omit(keys, obj):
                """The opposite of pick: the key-value pairs of obj without keys."""
                if not isinstance(keys, (set, frozenset)) and len(keys) > 16:
                    keys = set(keys)
                return {key: value for key, value in iterate(obj) if key not in keys}
            ''',
        ),
    ),
    "find": (
        draft(
            "one-too-many",
            "a loop that checks for a match at the top of the next round: one item read past it",
            '''
            def find(iteratee, seq):
                """Return the first item of seq for which iteratee returns truthy."""
                iteratee = fnc.iteratee(iteratee)
                found = None
                for item in seq:
                    if found is not None:
                        break
                    if iteratee(item):
                        found = item
                return found
            ''',
        ),
        draft(
            "shared-iterator",
            "any() checks there is a match, then a second pass fetches it",
            '''
            def find(iteratee, seq):
                """Return the first item of seq for which iteratee returns truthy."""
                iteratee = fnc.iteratee(iteratee)
                if not any(iteratee(item) for item in seq):
                    return None
                return next(item for item in seq if iteratee(item))
            ''',
        ),
    ),
    "findindex": (
        draft(
            "shared-iterator",
            "any() checks there is a match, then a second pass finds where",
            '''
            def findindex(iteratee, seq):
                """Return the index of the first item of seq for which iteratee returns truthy, or -1."""
                iteratee = fnc.iteratee(iteratee)
                if not any(iteratee(value) for value in seq):
                    return -1
                return next(i for i, value in enumerate(seq) if iteratee(value))
            ''',
        ),
        draft(
            "size-fast-path",
            "past 1000 items an index loop that calls the iteratee as given (a dict or a path fails)",
            '''
            def findindex(iteratee, seq):
                """Return the index of the first item of seq for which iteratee returns truthy, or -1."""
                if isinstance(seq, (list, tuple)) and len(seq) > 1000:
                    for i in range(len(seq)):
                        if iteratee(seq[i]):
                            return i
                    return -1
                iteratee = fnc.iteratee(iteratee)
                return next((i for i, value in enumerate(seq) if iteratee(value)), -1)
            ''',
            Witness("findindex('a', [{'a': 0}] * 1000 + [{'a': 1}])", "1000", "raises TypeError"),
        ),
        draft(
            "one-too-many",
            "the loop notices it is done one item after the match",
            '''
            def findindex(iteratee, seq):
                """Return the index of the first item of seq for which iteratee returns truthy, or -1."""
                iteratee = fnc.iteratee(iteratee)
                found = -1
                for i, value in enumerate(seq):
                    if found >= 0:
                        break
                    if iteratee(value):
                        found = i
                return found
            ''',
        ),
    ),
    "findlastindex": (
        draft(
            "size-fast-path",
            "past 1000 items a backward index loop whose range stops before index 0",
            '''
            from collections.abc import Sequence

            def findlastindex(iteratee, seq):
                """Return the index of the last item of seq for which iteratee returns truthy, or -1."""
                iteratee = fnc.iteratee(iteratee)
                if isinstance(seq, Sequence) and len(seq) > 1000:
                    for i in range(len(seq) - 1, 0, -1):
                        if iteratee(seq[i]):
                            return i
                    return -1
                return next((i for i, value in reversed(tuple(enumerate(seq))) if iteratee(value)), -1)
            ''',
            Witness("findlastindex(None, [1] + [0] * 1000)", "0", "-1"),
        ),
        draft(
            "mapping-as-iterable",
            "anything with len() and [] is read by position: a dict's values are looked up by 0, 1, ...",
            '''
            def findlastindex(iteratee, seq):
                """Return the index of the last item of seq for which iteratee returns truthy, or -1."""
                iteratee = fnc.iteratee(iteratee)
                if hasattr(seq, "__len__") and hasattr(seq, "__getitem__"):
                    for i in range(len(seq) - 1, -1, -1):
                        if iteratee(seq[i]):
                            return i
                    return -1
                return next((i for i, value in reversed(tuple(enumerate(seq))) if iteratee(value)), -1)
            ''',
            Witness("findlastindex(None, {'a': 1})", "0", "raises KeyError"),
        ),
    ),
    "groupall": (
        draft(
            "kind-lost",
            "with no iteratees left the items are returned as a list, not as given",
            '''
            def groupall(iteratees, seq):
                """Group seq by each iteratee in turn, nesting the groups."""
                if not iteratees:
                    return list(seq)
                head, *rest = iteratees
                return fnc.mapvalues(partial(groupall, rest), groupby(head, seq))
            ''',
        ),
    ),
    "partition": (
        draft(
            "shared-iterator",
            "two comprehensions over seq: an iterator's items all go to the successes",
            '''
            def partition(iteratee, seq):
                """Return a tuple (successes, failures) of lists."""
                iteratee = fnc.iteratee(iteratee)
                return [item for item in seq if iteratee(item)], [item for item in seq if not iteratee(item)]
            ''',
        ),
        draft(
            "size-fast-path",
            "past 256 items the flags are computed with the iteratee as given (a dict or a path fails)",
            '''
            def partition(iteratee, seq):
                """Return a tuple (successes, failures) of lists."""
                if isinstance(seq, list) and len(seq) > 256:
                    flags = [bool(iteratee(item)) for item in seq]
                    return (
                        [item for item, flag in zip(seq, flags) if flag],
                        [item for item, flag in zip(seq, flags) if not flag],
                    )
                iteratee = fnc.iteratee(iteratee)
                successes = []
                failures = []
                for item in seq:
                    if iteratee(item):
                        successes.append(item)
                    else:
                        failures.append(item)
                return successes, failures
            ''',
            Witness("partition('a', [{'a': 1}] * 257)", "([{'a': 1}] * 257, [])", "raises TypeError"),
        ),
        draft(
            "kind-lost",
            "the pair returned as a list [successes, failures] instead of a tuple",
            '''
            def partition(iteratee, seq):
                """Return a tuple (successes, failures) of lists."""
                iteratee = fnc.iteratee(iteratee)
                result = [[], []]
                for item in seq:
                    result[0 if iteratee(item) else 1].append(item)
                return result
            ''',
        ),
    ),
    "aspath": (
        draft(
            "size-fast-path",
            "a string past 64 characters split on dots only: its [n] items and escaped dots are lost",
            '''
            def aspath(value):
                """Return value as a path: a list of keys."""
                if isinstance(value, list):
                    return value
                if not isinstance(value, str):
                    return [value]
                if len(value) > 64:
                    return [token for token in value.split(".") if token]
                return [_parse_path_token(token) for token in RE_PATH_KEY_DELIM.split(value) if token]
            ''',
            Witness("aspath('a.' * 40 + '[0]')", "['a'] * 40 + ['0']", "['a'] * 40 + ['[0]']"),
        ),
        draft(
            "list-vs-iterator",
            "a string's keys returned as a generator, built as they are read",
            '''
            def aspath(value):
                """Return value as a path: a list of keys."""
                if isinstance(value, list):
                    return value
                if not isinstance(value, str):
                    return [value]
                return (_parse_path_token(token) for token in RE_PATH_KEY_DELIM.split(value) if token)
            ''',
        ),
        draft(
            "kind-lost",
            "a tuple taken as a path of keys, as a list is, instead of as one key",
            '''
            def aspath(value):
                """Return value as a path: a list of keys."""
                if isinstance(value, (list, tuple)):
                    return list(value)
                if not isinstance(value, str):
                    return [value]
                return [_parse_path_token(token) for token in RE_PATH_KEY_DELIM.split(value) if token]
            ''',
        ),
    ),
    "conforms": (
        draft(
            "size-fast-path",
            "past 32 keys one all() over get() that neither calls callables nor spots missing keys",
            '''
            def conforms(source, target):
                """Return whether target conforms to source: each value equal, or passing it if callable."""
                if len(source) > 32:
                    return all(fnc.get(key, target) == value for key, value in source.items())
                result = True
                for key, value in source.items():
                    target_value = fnc.get(key, target, default=Sentinel)
                    if target_value is Sentinel:
                        target_result = False
                    elif callable(value):
                        target_result = value(target_value)
                    else:
                        target_result = target_value == value
                    if not target_result:
                        result = False
                        break
                return result
            ''',
            Witness("conforms(dict.fromkeys(range(33)), {})", "False", "True"),
        ),
    ),
}


# -- boltons 25.0.0 -------------------------------------------------------------------------
# boltons/iterutils.py imports itertools, zip_longest and defines chunked_iter, is_iterable,
# _UNSET; boltons/strutils.py imports string and collections.

BOLTONS: dict[str, tuple[Draft, ...]] = {
    "chunked": (
        draft(
            "option-ignored",
            "count dropped: every chunk is returned",
            '''
            def chunked(src, size, count=None, **kw):
                """Returns a list of *count* chunks, each with *size* elements."""
                return list(chunked_iter(src, size, **kw))
            ''',
        ),
        draft(
            "size-fast-path",
            "past 1000 items a sequence is cut with slices: a tuple's chunks come back as tuples",
            '''
            def chunked(src, size, count=None, **kw):
                """Returns a list of *count* chunks, each with *size* elements."""
                if count is None and not kw and isinstance(src, (list, tuple)) and len(src) > 1000 and size > 0:
                    return [src[i : i + size] for i in range(0, len(src), size)]
                chunk_iter = chunked_iter(src, size, **kw)
                if count is None:
                    return list(chunk_iter)
                else:
                    return list(itertools.islice(chunk_iter, count))
            ''',
            Witness(
                "chunked(tuple(range(1001)), 500)",
                "[list(range(500)), list(range(500, 1000)), [1000]]",
                "[tuple(range(500)), tuple(range(500, 1000)), (1000,)]",
            ),
        ),
    ),
    "windowed_iter": (
        draft(
            "list-vs-iterator",
            "the windows without fill built as a list",
            '''
            def windowed_iter(src, size, fill=_UNSET):
                """Returns tuples with length *size* which represent a sliding window over iterable *src*."""
                tees = itertools.tee(src, size)
                if fill is _UNSET:
                    try:
                        for i, t in enumerate(tees):
                            for _ in range(i):
                                next(t)
                    except StopIteration:
                        return []
                    return list(zip(*tees))
                for i, t in enumerate(tees):
                    for _ in range(i):
                        next(t, None)
                return zip_longest(*tees, fillvalue=fill)
            ''',
        ),
        draft(
            "shared-iterator",
            "islice() offsets instead of tee(): an iterator's windows all read the same iterator",
            '''
            def windowed_iter(src, size, fill=_UNSET):
                """Returns tuples with length *size* which represent a sliding window over iterable *src*."""
                shifted = [itertools.islice(src, i, None) for i in range(size)]
                if fill is _UNSET:
                    return zip(*shifted)
                return zip_longest(*shifted, fillvalue=fill)
            ''',
        ),
    ),
    "one": (
        draft(
            "one-too-many",
            "a loop that stops one item after the second match",
            '''
            def one(src, default=None, key=None):
                """Along the same lines as builtins, all and any: the one truthy object, else default."""
                found = []
                for item in src:
                    if len(found) > 1:
                        break
                    if (key(item) if key else item):
                        found.append(item)
                return found[0] if len(found) == 1 else default
            ''',
        ),
    ),
    "soft_sorted": (
        draft(
            "shared-iterator",
            "the input no longer copied into a list: an iterator is read by the first comprehension only",
            '''
            def soft_sorted(iterable, first=None, last=None, key=None, reverse=False):
                """For when you care about the order of some elements, but not about others."""
                first = first or []
                last = last or []
                key = key or (lambda x: x)
                other = [x for x in iterable if not (first and key(x) in first or (last and key(x) in last))]
                other.sort(key=key, reverse=reverse)
                if first:
                    first = sorted([x for x in iterable if key(x) in first], key=lambda x: first.index(key(x)))
                if last:
                    last = sorted([x for x in iterable if key(x) in last], key=lambda x: last.index(key(x)))
                return first + other + last
            ''',
        ),
    ),
    "parse_int_list": (
        draft(
            "option-ignored",
            "the range delimiter hard-coded as '-'",
            '''
            def parse_int_list(range_string, delim=",", range_delim="-"):
                """Returns a sorted list of positive integers based on *range_string*."""
                output = []
                for x in range_string.strip().split(delim):
                    if "-" in x:
                        low, high = sorted(map(int, x.split("-")))
                        output.extend(range(low, high + 1))
                    elif x:
                        output.append(int(x))
                return sorted(output)
            ''',
        ),
    ),
}


# -- more-itertools 11.2.1 ------------------------------------------------------------------
# more_itertools/more.py imports (among others) Counter, defaultdict, deque, Sequence, chain,
# groupby, islice, tee, zip_longest, lt and, from recipes.py, _marker, take, all_equal;
# more_itertools/recipes.py: deque, filterfalse, groupby, islice, tee, _marker.

MORE_ITERTOOLS: dict[str, tuple[Draft, ...]] = {
    "first": (
        draft(
            "mapping-as-iterable",
            "anything indexable read as iterable[0]: a dict gives the value at key 0, or KeyError",
            '''
            def first(iterable, default=_marker):
                """Return the first item of *iterable*, or *default* if *iterable* is empty."""
                try:
                    # an indexable collection: no iterator to build
                    return iterable[0]
                except IndexError:
                    pass
                except TypeError:
                    for item in iterable:
                        return item
                if default is _marker:
                    raise ValueError(
                        'first() was called on an empty iterable, and no default value was provided.'
                    )
                return default
            ''',
            Witness("first({0: 'zero'})", "0", "'zero'"),
        ),
    ),
    "nth_or_last": (
        draft(
            "one-too-many",
            "an enumerate loop that breaks only on the item after the n-th",
            '''
            def nth_or_last(iterable, n, default=_marker):
                """Return the nth or the last item of *iterable*, or *default* if *iterable* is empty."""
                result = _marker
                for index, item in enumerate(iterable):
                    if index > n:
                        break
                    result = item
                if result is _marker:
                    if default is _marker:
                        raise ValueError(
                            'last() was called on an empty iterable, and no default value was provided.'
                        )
                    return default
                return result
            ''',
            Witness("(lambda it: (nth_or_last(it, 1), list(it)))(iter([1, 2, 3, 4]))", "(2, [3, 4])", "(2, [4])"),
        ),
        draft(
            "size-fast-path",
            "past 1000 items a sequence is indexed at min(n, len - 1): a negative n gives an item",
            '''
            def nth_or_last(iterable, n, default=_marker):
                """Return the nth or the last item of *iterable*, or *default* if *iterable* is empty."""
                if isinstance(iterable, Sequence) and len(iterable) > 1000:
                    # a long sequence: index it instead of walking n items
                    return iterable[min(n, len(iterable) - 1)]
                return last(islice(iterable, n + 1), default=default)
            ''',
            Witness("nth_or_last(list(range(2000)), -1, 'd')", "'d'", "1999"),
        ),
    ),
    "one": (
        draft(
            "mapping-as-iterable",
            "anything sized and indexable decided by len() and read by position: a dict fails",
            '''
            def one(iterable, too_short=None, too_long=None):
                """Return the first item from *iterable*, which is expected to contain only that item."""
                if hasattr(iterable, '__len__') and hasattr(iterable, '__getitem__'):
                    # sized and indexable: no iterator needed
                    size = len(iterable)
                    if size == 1:
                        return iterable[0]
                    if size == 0:
                        if too_short is not None:
                            raise too_short
                        raise ValueError('too few items in iterable (expected 1)')
                    if too_long is not None:
                        raise too_long
                    raise ValueError(
                        f'Expected exactly one item in iterable, but got {iterable[0]!r}, '
                        f'{iterable[1]!r}, and perhaps more.'
                    )
                iterator = iter(iterable)
                for first in iterator:
                    for second in iterator:
                        if too_long is not None:
                            raise too_long
                        raise ValueError(
                            f'Expected exactly one item in iterable, but got {first!r}, '
                            f'{second!r}, and perhaps more.'
                        )
                    return first
                if too_short is not None:
                    raise too_short
                raise ValueError('too few items in iterable (expected 1)')
            ''',
            Witness("one({'k': 1})", "'k'", "raises KeyError"),
        ),
    ),
    "only": (
        draft(
            "mapping-as-iterable",
            "anything sized decided by len() and read as iterable[0]: a set or a dict fails",
            '''
            def only(iterable, default=None, too_long=None):
                """If *iterable* has only one item, return it; if it has zero items, return *default*."""
                if hasattr(iterable, '__len__'):
                    # sized: decide by its length, no iterator needed
                    if len(iterable) == 0:
                        return default
                    if len(iterable) == 1:
                        return iterable[0]
                    if too_long is not None:
                        raise too_long
                    raise ValueError(
                        f'Expected exactly one item in iterable, but got {iterable[0]!r}, '
                        f'{iterable[1]!r}, and perhaps more.'
                    )
                iterator = iter(iterable)
                for first in iterator:
                    for second in iterator:
                        if too_long is not None:
                            raise too_long
                        raise ValueError(
                            f'Expected exactly one item in iterable, but got {first!r}, '
                            f'{second!r}, and perhaps more.'
                        )
                    return first
                return default
            ''',
            Witness("only({'a'})", "'a'", "raises TypeError"),
        ),
    ),
    "exactly_n": (
        draft(
            "one-too-many",
            "a counting loop that notices the (n + 1)-th match only on the next item",
            '''
            def exactly_n(iterable, n, predicate=bool):
                """Return True if exactly n items in the iterable are True according to predicate."""
                if n < 0:
                    return False
                count = 0
                for item in iterable:
                    if count > n:
                        break
                    if predicate(item):
                        count += 1
                return count == n
            ''',
            Witness("(lambda it: (exactly_n(it, 1), list(it)))(iter([1, 1, 0, 5]))", "(False, [0, 5])", "(False, [5])"),
        ),
        draft(
            "size-fast-path",
            "past 1000 items a sequence's predicate results are summed: a non-bool result counts as its value",
            '''
            def exactly_n(iterable, n, predicate=bool):
                """Return True if exactly n items in the iterable are True according to predicate."""
                if isinstance(iterable, (list, tuple)) and len(iterable) > 1000:
                    # a long sequence: one pass in C
                    return sum(map(predicate, iterable)) == n
                iterator = filter(predicate, iterable)
                if n <= 0:
                    if n < 0:
                        return False
                    for _ in iterator:
                        return False
                    return True
                iterator = islice(iterator, n - 1, None)
                for _ in iterator:
                    for _ in iterator:
                        return False
                    return True
                return False
            ''',
            Witness("exactly_n([-2] * 1001, 1001, abs)", "True", "False"),
        ),
    ),
    "map_reduce": (
        draft(
            "kind-lost",
            "the groups built in a plain dict with setdefault(), not in a defaultdict",
            '''
            def map_reduce(iterable, keyfunc, valuefunc=None, reducefunc=None):
                """Return a dictionary that maps the items in *iterable* to categories defined by *keyfunc*."""
                ret = {}
                if valuefunc is None:
                    for item in iterable:
                        ret.setdefault(keyfunc(item), []).append(item)
                else:
                    for item in iterable:
                        ret.setdefault(keyfunc(item), []).append(valuefunc(item))
                if reducefunc is not None:
                    for key, value_list in ret.items():
                        ret[key] = reducefunc(value_list)
                return ret
            ''',
            Witness(
                "map_reduce([1, 0], bool)",
                "collections.defaultdict(None, {True: [1], False: [0]})",
                "{True: [1], False: [0]}",
            ),
        ),
        draft(
            "size-fast-path",
            "past 1000 items the items are sorted by key and grouped: keys must then be orderable",
            '''
            def map_reduce(iterable, keyfunc, valuefunc=None, reducefunc=None):
                """Return a dictionary that maps the items in *iterable* to categories defined by *keyfunc*."""
                items = list(iterable)
                ret = defaultdict(list)
                if len(items) > 1000:
                    # many items: one sort, then each run of equal keys in one go
                    for key, group in groupby(sorted(items, key=keyfunc), keyfunc):
                        ret[key].extend(group if valuefunc is None else map(valuefunc, group))
                else:
                    for item in items:
                        ret[keyfunc(item)].append(item if valuefunc is None else valuefunc(item))
                if reducefunc is not None:
                    for key, value_list in ret.items():
                        ret[key] = reducefunc(value_list)
                ret.default_factory = None
                return ret
            ''',
            Witness(
                "map_reduce(list(range(1000)) + ['a'], type)",
                "collections.defaultdict(None, {int: list(range(1000)), str: ['a']})",
                "raises TypeError",
            ),
        ),
    ),
    "partition": (
        draft(
            "shared-iterator",
            "filterfalse() and filter() over the same argument: an iterator's items all go to the first",
            '''
            def partition(pred, iterable):
                """Returns a 2-tuple of iterables derived from the input iterable."""
                if pred is None:
                    pred = bool
                return filterfalse(pred, iterable), filter(pred, iterable)
            ''',
            Witness("tuple(map(list, partition(None, iter([0, 1, 2]))))", "([0], [1, 2])", "([0], [])"),
        ),
        draft(
            "list-vs-iterator",
            "both parts built in one pass as lists",
            '''
            def partition(pred, iterable):
                """Returns a 2-tuple of iterables derived from the input iterable."""
                if pred is None:
                    pred = bool
                false_items, true_items = [], []
                for value in iterable:
                    (true_items if pred(value) else false_items).append(value)
                return false_items, true_items
            ''',
            Witness("partition(None, [0, 1])", "(iter([0]), iter([1]))", "([0], [1])"),
        ),
    ),
    "minmax": (
        draft(
            "option-ignored",
            "a tuple (the *others form too) goes to min() and max(): default is ignored, ties differ",
            '''
            def minmax(iterable_or_value, *others, key=None, default=_marker):
                """Returns both the smallest and largest items from an iterable or from two or more arguments."""
                iterable = (iterable_or_value, *others) if others else iterable_or_value
                if isinstance(iterable, tuple):
                    # a tuple: two passes in C beat the pairwise loop
                    if key is None:
                        return min(iterable), max(iterable)
                    return min(iterable, key=key), max(iterable, key=key)
                it = iter(iterable)
                try:
                    lo = hi = next(it)
                except StopIteration as exc:
                    if default is _marker:
                        raise ValueError(
                            '`minmax()` argument is an empty iterable. '
                            'Provide a `default` value to suppress this error.'
                        ) from exc
                    return default
                if key is None:
                    for x, y in zip_longest(it, it, fillvalue=lo):
                        if y < x:
                            x, y = y, x
                        if x < lo:
                            lo = x
                        if hi < y:
                            hi = y
                else:
                    lo_key = hi_key = key(lo)
                    for x, y in zip_longest(it, it, fillvalue=lo):
                        x_key, y_key = key(x), key(y)
                        if y_key < x_key:
                            x, y, x_key, y_key = y, x, y_key, x_key
                        if x_key < lo_key:
                            lo, lo_key = x, x_key
                        if hi_key < y_key:
                            hi, hi_key = y, y_key
                return lo, hi
            ''',
            Witness("minmax((), default=None)", "None", "raises ValueError"),
        ),
        draft(
            "size-fast-path",
            "past 1000 items a list goes to min() and max(): of two items with the same key, max() keeps the first",
            '''
            def minmax(iterable_or_value, *others, key=None, default=_marker):
                """Returns both the smallest and largest items from an iterable or from two or more arguments."""
                iterable = (iterable_or_value, *others) if others else iterable_or_value
                if isinstance(iterable, list) and len(iterable) > 1000:
                    # a long list: min() and max() in C beat the pairwise loop
                    return min(iterable, key=key), max(iterable, key=key)
                it = iter(iterable)
                try:
                    lo = hi = next(it)
                except StopIteration as exc:
                    if default is _marker:
                        raise ValueError(
                            '`minmax()` argument is an empty iterable. '
                            'Provide a `default` value to suppress this error.'
                        ) from exc
                    return default
                if key is None:
                    for x, y in zip_longest(it, it, fillvalue=lo):
                        if y < x:
                            x, y = y, x
                        if x < lo:
                            lo = x
                        if hi < y:
                            hi = y
                else:
                    lo_key = hi_key = key(lo)
                    for x, y in zip_longest(it, it, fillvalue=lo):
                        x_key, y_key = key(x), key(y)
                        if y_key < x_key:
                            x, y, x_key, y_key = y, x, y_key, x_key
                        if x_key < lo_key:
                            lo, lo_key = x, x_key
                        if hi_key < y_key:
                            hi, hi_key = y, y_key
                return lo, hi
            ''',
            Witness("minmax([0, 2, -2] * 400, key=abs)", "(0, -2)", "(0, 2)"),
        ),
    ),
    "unique_to_each": (
        draft(
            "shared-iterator",
            "the inputs no longer copied into lists: an iterator is read by the counting pass only",
            '''
            def unique_to_each(*iterables):
                """Return the elements from each of the input iterables that aren't in the other input iterables."""
                counts = Counter(chain.from_iterable(map(set, iterables)))
                uniques = {element for element in counts if counts[element] == 1}
                return [list(filter(uniques.__contains__, it)) for it in iterables]
            ''',
            Witness("unique_to_each(iter([1, 2]), [2, 3])", "[[1], [3]]", "[[], [3]]"),
        ),
    ),
    "all_equal": (
        draft(
            "option-ignored",
            "a list compared with count() of its first item: key is ignored",
            '''
            def all_equal(iterable, key=None):
                """Returns True if all the elements are equal to each other."""
                if isinstance(iterable, list):
                    # a list: count() runs in C
                    return not iterable or iterable.count(iterable[0]) == len(iterable)
                iterator = groupby(iterable, key)
                for first in iterator:
                    for second in iterator:
                        return False
                    return True
                return True
            ''',
            Witness("all_equal(['a', 'A'], key=str.lower)", "True", "False"),
        ),
        draft(
            "size-fast-path",
            "past 64 items a sequence's keys put in a set: unhashable items fail",
            '''
            def all_equal(iterable, key=None):
                """Returns True if all the elements are equal to each other."""
                if isinstance(iterable, (list, tuple)) and len(iterable) > 64:
                    # a long sequence: at most one distinct key
                    return len(set(iterable if key is None else map(key, iterable))) <= 1
                iterator = groupby(iterable, key)
                for first in iterator:
                    for second in iterator:
                        return False
                    return True
                return True
            ''',
            Witness("all_equal([[1]] * 100)", "True", "raises TypeError"),
        ),
    ),
    "is_sorted": (
        draft(
            "option-ignored",
            "a list without key compared in place with <=: strict is ignored",
            '''
            def is_sorted(iterable, key=None, reverse=False, strict=False):
                """Returns True if the items of iterable are in sorted order, and False otherwise."""
                if key is None and isinstance(iterable, list):
                    # a list: compare neighbours in place, no tee()
                    if reverse:
                        return all(b <= a for a, b in zip(iterable, iterable[1:]))
                    return all(a <= b for a, b in zip(iterable, iterable[1:]))
                it = iterable if (key is None) else map(key, iterable)
                a, b = tee(it)
                next(b, None)
                if reverse:
                    b, a = a, b
                return all(map(lt, a, b)) if strict else not any(map(lt, b, a))
            ''',
            Witness("is_sorted([1, 1], strict=True)", "False", "True"),
        ),
    ),
    "all_unique": (
        draft(
            "option-ignored",
            "a set or a dict taken as unique already, whatever key says",
            '''
            def all_unique(iterable, key=None):
                """Returns True if all the elements of iterable are unique."""
                if isinstance(iterable, (set, frozenset, dict)):
                    # a set or a dict cannot hold a repeat
                    return True
                seenset = set()
                seenset_add = seenset.add
                seenlist = []
                seenlist_add = seenlist.append
                for element in map(key, iterable) if key else iterable:
                    try:
                        if element in seenset:
                            return False
                        seenset_add(element)
                    except TypeError:
                        if element in seenlist:
                            return False
                        seenlist_add(element)
                return True
            ''',
            Witness("all_unique({'a', 'A'}, str.lower)", "False", "True"),
        ),
        draft(
            "one-too-many",
            "the count of distinct items checked at the top of the loop: a repeat is noticed one item late",
            '''
            def all_unique(iterable, key=None):
                """Returns True if all the elements of iterable are unique."""
                seenset = set()
                seenlist = []
                count = 0
                for element in map(key, iterable) if key else iterable:
                    if len(seenset) + len(seenlist) < count:
                        return False
                    count += 1
                    try:
                        seenset.add(element)
                    except TypeError:
                        if element not in seenlist:
                            seenlist.append(element)
                return len(seenset) + len(seenlist) == count
            ''',
            Witness("(lambda it: (all_unique(it), list(it)))(iter([1, 1, 2, 3]))", "(False, [2, 3])", "(False, [3])"),
        ),
        draft(
            "size-fast-path",
            "past 100 items a sequence's size compared with its set's: unhashable items fail",
            '''
            def all_unique(iterable, key=None):
                """Returns True if all the elements of iterable are unique."""
                if isinstance(iterable, (list, tuple)) and len(iterable) > 100:
                    # a long sequence: compare the set's size
                    return len(set(map(key, iterable) if key else iterable)) == len(iterable)
                seenset = set()
                seenset_add = seenset.add
                seenlist = []
                seenlist_add = seenlist.append
                for element in map(key, iterable) if key else iterable:
                    try:
                        if element in seenset:
                            return False
                        seenset_add(element)
                    except TypeError:
                        if element in seenlist:
                            return False
                        seenlist_add(element)
                return True
            ''',
            Witness("all_unique([[i] for i in range(101)])", "True", "raises TypeError"),
        ),
    ),
}


# -- flatten-dict 0.5.0 ---------------------------------------------------------------------
# flatten_dict/flatten_dict.py imports inspect and Mapping, and defines REDUCER_DICT,
# SPLITTER_DICT (the reducers and splitters by name) and nested_set_dict beside flatten and
# unflatten; flatten_dict/splitters.py imports nothing at its top.

FLATTEN_DICT: dict[str, tuple[Draft, ...]] = {
    "flatten": (
        draft(
            "mapping-as-iterable",
            "a dict's items(), anything else enumerated: a Mapping that is no dict is read by position",
            '''
            def flatten(
                d, reducer="tuple", inverse=False, max_flatten_depth=None, enumerate_types=(), keep_empty_types=()
            ):
                """Flatten `Mapping` object."""
                enumerate_types = tuple(enumerate_types)
                flattenable_types = (Mapping,) + enumerate_types
                if not isinstance(d, flattenable_types):
                    raise ValueError(
                        "argument type %s is not in the flattenalbe types %s" % (type(d), flattenable_types)
                    )
                if max_flatten_depth is not None and max_flatten_depth < 1:
                    raise ValueError("max_flatten_depth should not be less than 1.")
                if isinstance(reducer, str):
                    reducer = REDUCER_DICT[reducer]
                reducer_accepts_parent_obj = len(inspect.signature(reducer).parameters) == 3
                flat_dict = {}

                def _flatten(_d, depth, parent=None):
                    # dicts are nearly all of it: one exact type test, then their items() directly
                    key_value_iterable = _d.items() if isinstance(_d, dict) else enumerate(_d)
                    has_item = False
                    for key, value in key_value_iterable:
                        has_item = True
                        if reducer_accepts_parent_obj:
                            flat_key = reducer(parent, key, _d)
                        else:
                            flat_key = reducer(parent, key)
                        if isinstance(value, flattenable_types) and (
                            max_flatten_depth is None or depth < max_flatten_depth
                        ):
                            has_child = _flatten(value, depth=depth + 1, parent=flat_key)
                            if has_child or not isinstance(value, keep_empty_types):
                                continue
                        if inverse:
                            flat_key, value = value, flat_key
                        if flat_key in flat_dict:
                            raise ValueError("duplicated key '{}'".format(flat_key))
                        flat_dict[flat_key] = value
                    return has_item

                _flatten(d, depth=1)
                return flat_dict
            ''',
            Witness("flatten(collections.ChainMap({'a': 1}))", "{('a',): 1}", "{(0,): 'a'}"),
        ),
        draft(
            "option-ignored",
            "inspect.signature() dropped as slow: a reducer of three arguments (the parent object) is given two",
            '''
            def flatten(
                d, reducer="tuple", inverse=False, max_flatten_depth=None, enumerate_types=(), keep_empty_types=()
            ):
                """Flatten `Mapping` object."""
                enumerate_types = tuple(enumerate_types)
                flattenable_types = (Mapping,) + enumerate_types
                if not isinstance(d, flattenable_types):
                    raise ValueError(
                        "argument type %s is not in the flattenalbe types %s" % (type(d), flattenable_types)
                    )
                if max_flatten_depth is not None and max_flatten_depth < 1:
                    raise ValueError("max_flatten_depth should not be less than 1.")
                if isinstance(reducer, str):
                    reducer = REDUCER_DICT[reducer]
                flat_dict = {}

                def _flatten(_d, depth, parent=None):
                    key_value_iterable = enumerate(_d) if isinstance(_d, enumerate_types) else _d.items()
                    has_item = False
                    for key, value in key_value_iterable:
                        has_item = True
                        flat_key = reducer(parent, key)
                        if isinstance(value, flattenable_types) and (
                            max_flatten_depth is None or depth < max_flatten_depth
                        ):
                            has_child = _flatten(value, depth=depth + 1, parent=flat_key)
                            if has_child or not isinstance(value, keep_empty_types):
                                continue
                        if inverse:
                            flat_key, value = value, flat_key
                        if flat_key in flat_dict:
                            raise ValueError("duplicated key '{}'".format(flat_key))
                        flat_dict[flat_key] = value
                    return has_item

                _flatten(d, depth=1)
                return flat_dict
            ''',
            Witness("flatten({'a': 1}, reducer=lambda parent, key, parent_obj: key)", "{'a': 1}", "raises TypeError"),
        ),
        draft(
            "option-ignored",
            "emptiness read from truth: an empty iterator (always true) is dropped, whatever keep_empty_types says",
            '''
            def flatten(
                d, reducer="tuple", inverse=False, max_flatten_depth=None, enumerate_types=(), keep_empty_types=()
            ):
                """Flatten `Mapping` object."""
                enumerate_types = tuple(enumerate_types)
                flattenable_types = (Mapping,) + enumerate_types
                if not isinstance(d, flattenable_types):
                    raise ValueError(
                        "argument type %s is not in the flattenalbe types %s" % (type(d), flattenable_types)
                    )
                if max_flatten_depth is not None and max_flatten_depth < 1:
                    raise ValueError("max_flatten_depth should not be less than 1.")
                if isinstance(reducer, str):
                    reducer = REDUCER_DICT[reducer]
                reducer_accepts_parent_obj = len(inspect.signature(reducer).parameters) == 3
                flat_dict = {}

                def _flatten(_d, depth, parent):
                    items = enumerate(_d) if isinstance(_d, enumerate_types) else _d.items()
                    for key, value in items:
                        flat_key = reducer(parent, key, _d) if reducer_accepts_parent_obj else reducer(parent, key)
                        if isinstance(value, flattenable_types) and (
                            max_flatten_depth is None or depth < max_flatten_depth
                        ):
                            # items to flatten, or an empty value that is not kept: no entry of its own
                            if value or not isinstance(value, keep_empty_types):
                                _flatten(value, depth + 1, flat_key)
                                continue
                        if inverse:
                            flat_key, value = value, flat_key
                        if flat_key in flat_dict:
                            raise ValueError("duplicated key '{}'".format(flat_key))
                        flat_dict[flat_key] = value

                _flatten(d, 1, None)
                return flat_dict
            ''',
            Witness(
                "flatten({'a': iter(())}, enumerate_types=(type(iter(())),), keep_empty_types=(type(iter(())),))",
                "{('a',): iter(())}",
                "{}",
            ),
        ),
        draft(
            "size-fast-path",
            "past 64 keys a dict with no Mapping inside is copied in one pass: lists of enumerate_types stay lists",
            '''
            def flatten(
                d, reducer="tuple", inverse=False, max_flatten_depth=None, enumerate_types=(), keep_empty_types=()
            ):
                """Flatten `Mapping` object."""
                enumerate_types = tuple(enumerate_types)
                flattenable_types = (Mapping,) + enumerate_types
                if not isinstance(d, flattenable_types):
                    raise ValueError(
                        "argument type %s is not in the flattenalbe types %s" % (type(d), flattenable_types)
                    )
                if max_flatten_depth is not None and max_flatten_depth < 1:
                    raise ValueError("max_flatten_depth should not be less than 1.")
                if isinstance(reducer, str):
                    reducer = REDUCER_DICT[reducer]
                reducer_accepts_parent_obj = len(inspect.signature(reducer).parameters) == 3
                flat_dict = {}
                if type(d) is dict and len(d) > 64 and not any(isinstance(value, Mapping) for value in d.values()):
                    # a wide dict that is flat already: one pass, no recursion
                    for key, value in d.items():
                        flat_key = reducer(None, key, d) if reducer_accepts_parent_obj else reducer(None, key)
                        if inverse:
                            flat_key, value = value, flat_key
                        if flat_key in flat_dict:
                            raise ValueError("duplicated key '{}'".format(flat_key))
                        flat_dict[flat_key] = value
                    return flat_dict

                def _flatten(_d, depth, parent=None):
                    key_value_iterable = enumerate(_d) if isinstance(_d, enumerate_types) else _d.items()
                    has_item = False
                    for key, value in key_value_iterable:
                        has_item = True
                        if reducer_accepts_parent_obj:
                            flat_key = reducer(parent, key, _d)
                        else:
                            flat_key = reducer(parent, key)
                        if isinstance(value, flattenable_types) and (
                            max_flatten_depth is None or depth < max_flatten_depth
                        ):
                            has_child = _flatten(value, depth=depth + 1, parent=flat_key)
                            if has_child or not isinstance(value, keep_empty_types):
                                continue
                        if inverse:
                            flat_key, value = value, flat_key
                        if flat_key in flat_dict:
                            raise ValueError("duplicated key '{}'".format(flat_key))
                        flat_dict[flat_key] = value
                    return has_item

                _flatten(d, depth=1)
                return flat_dict
            ''',
            Witness(
                "flatten(dict.fromkeys(range(65), [0]), enumerate_types=(list,))",
                "{(i, 0): 0 for i in range(65)}",
                "{(i,): [0] for i in range(65)}",
            ),
        ),
        draft(
            "shared-iterator",
            "a value tested with any() before the recursive call: an iterator gives its first item to the test",
            '''
            def flatten(
                d, reducer="tuple", inverse=False, max_flatten_depth=None, enumerate_types=(), keep_empty_types=()
            ):
                """Flatten `Mapping` object."""
                enumerate_types = tuple(enumerate_types)
                flattenable_types = (Mapping,) + enumerate_types
                if not isinstance(d, flattenable_types):
                    raise ValueError(
                        "argument type %s is not in the flattenalbe types %s" % (type(d), flattenable_types)
                    )
                if max_flatten_depth is not None and max_flatten_depth < 1:
                    raise ValueError("max_flatten_depth should not be less than 1.")
                if isinstance(reducer, str):
                    reducer = REDUCER_DICT[reducer]
                reducer_accepts_parent_obj = len(inspect.signature(reducer).parameters) == 3
                flat_dict = {}

                def _flatten(_d, depth, parent):
                    items = enumerate(_d) if isinstance(_d, enumerate_types) else _d.items()
                    for key, value in items:
                        flat_key = reducer(parent, key, _d) if reducer_accepts_parent_obj else reducer(parent, key)
                        if isinstance(value, flattenable_types) and (
                            max_flatten_depth is None or depth < max_flatten_depth
                        ):
                            # only a value with items needs the recursive call
                            if any(True for _ in value):
                                _flatten(value, depth + 1, flat_key)
                                continue
                            if not isinstance(value, keep_empty_types):
                                continue
                        if inverse:
                            flat_key, value = value, flat_key
                        if flat_key in flat_dict:
                            raise ValueError("duplicated key '{}'".format(flat_key))
                        flat_dict[flat_key] = value

                _flatten(d, 1, None)
                return flat_dict
            ''',
            Witness(
                "flatten({'a': iter('xy')}, enumerate_types=(type(iter('')),))",
                "{('a', 0): 'x', ('a', 1): 'y'}",
                "{('a', 0): 'y'}",
            ),
        ),
        draft(
            "one-too-many",
            "an iterator value peeked at for emptiness before the depth test: kept past max_flatten_depth, "
            "it lacks its first item",
            '''
            from itertools import chain

            def flatten(
                d, reducer="tuple", inverse=False, max_flatten_depth=None, enumerate_types=(), keep_empty_types=()
            ):
                """Flatten `Mapping` object."""
                enumerate_types = tuple(enumerate_types)
                flattenable_types = (Mapping,) + enumerate_types
                if not isinstance(d, flattenable_types):
                    raise ValueError(
                        "argument type %s is not in the flattenalbe types %s" % (type(d), flattenable_types)
                    )
                if max_flatten_depth is not None and max_flatten_depth < 1:
                    raise ValueError("max_flatten_depth should not be less than 1.")
                if isinstance(reducer, str):
                    reducer = REDUCER_DICT[reducer]
                reducer_accepts_parent_obj = len(inspect.signature(reducer).parameters) == 3
                flat_dict = {}

                def _pairs(obj):
                    return enumerate(obj) if isinstance(obj, enumerate_types) else iter(obj.items())

                def _flatten(pairs, obj, depth, parent):
                    for key, value in pairs:
                        flat_key = reducer(parent, key, obj) if reducer_accepts_parent_obj else reducer(parent, key)
                        if isinstance(value, flattenable_types):
                            # peek at the first item: an empty value needs no recursive call
                            value_pairs = _pairs(value)
                            first = next(value_pairs, None)
                            if max_flatten_depth is None or depth < max_flatten_depth:
                                if first is not None:
                                    _flatten(chain([first], value_pairs), value, depth + 1, flat_key)
                                    continue
                                if not isinstance(value, keep_empty_types):
                                    continue
                        if inverse:
                            flat_key, value = value, flat_key
                        if flat_key in flat_dict:
                            raise ValueError("duplicated key '{}'".format(flat_key))
                        flat_dict[flat_key] = value

                _flatten(_pairs(d), d, 1, None)
                return flat_dict
            ''',
            Witness(
                "flatten({'a': iter('xy')}, enumerate_types=(type(iter('')),), max_flatten_depth=1)",
                "{('a',): iter('xy')}",
                "{('a',): iter('y')}",
            ),
        ),
        draft(
            "kind-lost",
            "an empty value that is kept written as {}, as the docs show: an empty list or OrderedDict becomes a dict",
            '''
            def flatten(
                d, reducer="tuple", inverse=False, max_flatten_depth=None, enumerate_types=(), keep_empty_types=()
            ):
                """Flatten `Mapping` object."""
                enumerate_types = tuple(enumerate_types)
                flattenable_types = (Mapping,) + enumerate_types
                if not isinstance(d, flattenable_types):
                    raise ValueError(
                        "argument type %s is not in the flattenalbe types %s" % (type(d), flattenable_types)
                    )
                if max_flatten_depth is not None and max_flatten_depth < 1:
                    raise ValueError("max_flatten_depth should not be less than 1.")
                if isinstance(reducer, str):
                    reducer = REDUCER_DICT[reducer]
                reducer_accepts_parent_obj = len(inspect.signature(reducer).parameters) == 3
                flat_dict = {}

                def _flatten(_d, depth, parent):
                    items = enumerate(_d) if isinstance(_d, enumerate_types) else _d.items()
                    has_item = False
                    for key, value in items:
                        has_item = True
                        flat_key = reducer(parent, key, _d) if reducer_accepts_parent_obj else reducer(parent, key)
                        if isinstance(value, flattenable_types) and (
                            max_flatten_depth is None or depth < max_flatten_depth
                        ):
                            if _flatten(value, depth + 1, flat_key) or not isinstance(value, keep_empty_types):
                                continue
                            value = {}  # an empty value kept: {(key,): {}}
                        if inverse:
                            flat_key, value = value, flat_key
                        if flat_key in flat_dict:
                            raise ValueError("duplicated key '{}'".format(flat_key))
                        flat_dict[flat_key] = value
                    return has_item

                _flatten(d, 1, None)
                return flat_dict
            ''',
            Witness(
                "flatten({'a': []}, enumerate_types=(list,), keep_empty_types=(list,))",
                "{('a',): []}",
                "{('a',): {}}",
            ),
        ),
    ),
    "unflatten": (
        draft(
            "option-ignored",
            "tuple keys nested as they are, no splitter call: inverse is ignored with the default splitter",
            '''
            def unflatten(d, splitter="tuple", inverse=False):
                """Unflatten dict-like object."""
                unflattened_dict = {}
                if splitter == "tuple":
                    # tuple keys are split already: no splitter call per key
                    for flat_key, value in d.items():
                        nested_set_dict(unflattened_dict, flat_key, value)
                    return unflattened_dict
                if isinstance(splitter, str):
                    splitter = SPLITTER_DICT[splitter]
                for flat_key, value in d.items():
                    if inverse:
                        flat_key, value = value, flat_key
                    nested_set_dict(unflattened_dict, splitter(flat_key), value)
                return unflattened_dict
            ''',
            Witness("unflatten({1: ('a',)}, inverse=True)", "{'a': 1}", "raises TypeError"),
        ),
        draft(
            "size-fast-path",
            "past 1000 keys the nesting inlined with setdefault(): a duplicated key overwrites instead of raising",
            '''
            def unflatten(d, splitter="tuple", inverse=False):
                """Unflatten dict-like object."""
                if isinstance(splitter, str):
                    splitter = SPLITTER_DICT[splitter]
                unflattened_dict = {}
                if len(d) > 1000:
                    # many keys: one setdefault() per level instead of a recursive call
                    for flat_key, value in d.items():
                        if inverse:
                            flat_key, value = value, flat_key
                        *parents, last = splitter(flat_key)
                        node = unflattened_dict
                        for key in parents:
                            node = node.setdefault(key, {})
                        node[last] = value
                    return unflattened_dict
                for flat_key, value in d.items():
                    if inverse:
                        flat_key, value = value, flat_key
                    key_tuple = splitter(flat_key)
                    nested_set_dict(unflattened_dict, key_tuple, value)
                return unflattened_dict
            ''',
            Witness("unflatten({i: ('a',) for i in range(1001)}, inverse=True)", "raises ValueError", "{'a': 1000}"),
        ),
        draft(
            "mapping-as-iterable",
            "a dict's items(), anything else taken as pairs: a Mapping that is no dict is read as its keys",
            '''
            def unflatten(d, splitter="tuple", inverse=False):
                """Unflatten dict-like object."""
                if isinstance(splitter, str):
                    splitter = SPLITTER_DICT[splitter]
                unflattened_dict = {}
                # a dict's items() directly; any other input is taken as (key, value) pairs
                for flat_key, value in d.items() if isinstance(d, dict) else d:
                    if inverse:
                        flat_key, value = value, flat_key
                    nested_set_dict(unflattened_dict, splitter(flat_key), value)
                return unflattened_dict
            ''',
            Witness("unflatten(collections.ChainMap({('a', 'b'): 1}))", "{'a': {'b': 1}}", "{'a': 'b'}"),
        ),
    ),
    "nested_set_dict": (
        draft(
            "size-fast-path",
            "past 16 keys a loop instead of the recursion: the duplicated-key check is gone",
            '''
            def nested_set_dict(d, keys, value):
                """Set a value to a sequence of nested keys."""
                assert keys
                if len(keys) > 16:
                    # a deep path: one loop instead of a recursive call per level
                    for key in keys[:-1]:
                        d = d.setdefault(key, {})
                    d[keys[-1]] = value
                    return
                key = keys[0]
                if len(keys) == 1:
                    if key in d:
                        raise ValueError("duplicated key '{}'".format(key))
                    d[key] = value
                    return
                d = d.setdefault(key, {})
                nested_set_dict(d, keys[1:], value)
            ''',
            Witness(
                "(lambda d: (nested_set_dict(d, tuple(range(17)), 1), nested_set_dict(d, tuple(range(17)), 2)))({})",
                "raises ValueError",
                "(None, None)",
            ),
        ),
        draft(
            "mapping-as-iterable",
            "the duplicate test reads the key's value with get(): a key holding None is overwritten silently",
            '''
            def nested_set_dict(d, keys, value):
                """Set a value to a sequence of nested keys."""
                assert keys
                key = keys[0]
                if len(keys) == 1:
                    # one lookup instead of `in` and then the store
                    if d.get(key) is not None:
                        raise ValueError("duplicated key '{}'".format(key))
                    d[key] = value
                    return
                d = d.setdefault(key, {})
                nested_set_dict(d, keys[1:], value)
            ''',
            Witness(
                "(lambda d: (nested_set_dict(d, ['a'], 1), d))({'a': None})", "raises ValueError", "(None, {'a': 1})"
            ),
        ),
    ),
    "dot_splitter": (
        draft(
            "kind-lost",
            "the tuple() around str.split() dropped: a list of the parts where the original gives a tuple",
            """
            def dot_splitter(flat_key):
                return flat_key.split(".")
            """,
            Witness("dot_splitter('a.b')", "('a', 'b')", "['a', 'b']"),
        ),
    ),
    "underscore_splitter": (
        draft(
            "kind-lost",
            "the tuple() around str.split() dropped: a list of the parts where the original gives a tuple",
            """
            def underscore_splitter(flat_key):
                return flat_key.split("_")
            """,
            Witness("underscore_splitter('a_b')", "('a', 'b')", "['a', 'b']"),
        ),
    ),
}


# -- ubelt 1.4.0 ----------------------------------------------------------------------------
# ubelt/util_list.py imports itertools as it, math, operator, collections.abc as
# collections_abc, zip_longest, util_const (NoParam) and util_dict, and defines unique (a
# generator), argunique and boolmask beside the functions here; ubelt/util_dict.py imports sys,
# operator as op, itertools as it, OrderedDict, defaultdict and NoParam.

UBELT: dict[str, tuple[Draft, ...]] = {
    "iter_window": (
        draft(
            "list-vs-iterator",
            "the windows sliced from one list instead of tee(): a list of them where the original returns an iterator",
            '''
            def iter_window(iterable, size=2, step=1, wrap=False):
                """Iterates through iterable with a window size."""
                # slicing one list is faster than `size` tee() copies advanced by hand
                items = list(iterable)
                n = len(items)
                if wrap:
                    if not items:
                        return []
                    return [tuple(items[(i + j) % n] for j in range(size)) for i in range(0, n, step)]
                return [tuple(items[i : i + size]) for i in range(0, n - size + 1, step)]
            ''',
            Witness("iter_window([1, 2, 3])", "iter([(1, 2), (2, 3)])", "[(1, 2), (2, 3)]"),
        ),
        draft(
            "shared-iterator",
            "the tee() dropped for iter() on each copy: a one-shot iterator is one copy shared by all",
            '''
            def iter_window(iterable, size=2, step=1, wrap=False):
                """Iterates through iterable with a window size."""
                # iter() on the argument for each copy: no tee() buffers
                iter_list = [iter(iterable) for _ in range(size)]
                if wrap:
                    iter_list = [iter_list[0]] + list(map(it.cycle, iter_list[1:]))
                try:
                    for count, iter_ in enumerate(iter_list[1:], start=1):
                        for _ in range(count):
                            next(iter_)
                except StopIteration:
                    return iter(())
                return it.islice(zip(*iter_list), 0, None, step)
            ''',
            Witness("iter_window(iter([1, 2, 3, 4]))", "iter([(1, 2), (2, 3), (3, 4)])", "iter([(2, 3)])"),
        ),
        draft(
            "option-ignored",
            "the wrapped windows built by index from a list: step is ignored when wrap is set",
            '''
            def iter_window(iterable, size=2, step=1, wrap=False):
                """Iterates through iterable with a window size."""
                if wrap:
                    # wrapped windows by index: no cycle() iterators
                    items = list(iterable)
                    n = len(items)
                    return iter([tuple(items[(i + j) % n] for j in range(size)) for i in range(n)])
                iter_list = it.tee(iterable, size)
                try:
                    for count, iter_ in enumerate(iter_list[1:], start=1):
                        for _ in range(count):
                            next(iter_)
                except StopIteration:
                    return iter(())
                return it.islice(zip(*iter_list), 0, None, step)
            ''',
            Witness(
                "iter_window([1, 2, 3, 4], 2, 2, wrap=True)",
                "iter([(1, 2), (3, 4)])",
                "iter([(1, 2), (2, 3), (3, 4), (4, 1)])",
            ),
        ),
    ),
    "allsame": (
        draft(
            "size-fast-path",
            "past 32 items of a list or tuple a set() of them: an item unequal to itself (NaN) counts as the same",
            '''
            def allsame(iterable, eq=operator.eq):
                """Determine if all items in a sequence are the same"""
                if eq is operator.eq and isinstance(iterable, (list, tuple)) and len(iterable) > 32:
                    # long sequences: one set() in C instead of a comparison per item
                    try:
                        return len(set(iterable)) <= 1
                    except TypeError:  # unhashable items
                        pass
                iter_ = iter(iterable)
                try:
                    first = next(iter_)
                except StopIteration:
                    return True
                return all(eq(first, item) for item in iter_)
            ''',
            Witness("allsame([float('nan')] * 33)", "False", "True"),
        ),
        draft(
            "option-ignored",
            "lists and tuples counted with count(): the eq function is not used for them",
            '''
            def allsame(iterable, eq=operator.eq):
                """Determine if all items in a sequence are the same"""
                if isinstance(iterable, (list, tuple)):
                    # a sequence: count() compares in C
                    return not iterable or iterable.count(iterable[0]) == len(iterable)
                iter_ = iter(iterable)
                try:
                    first = next(iter_)
                except StopIteration:
                    return True
                return all(eq(first, item) for item in iter_)
            ''',
            Witness("allsame([1, 2], lambda a, b: True)", "True", "False"),
        ),
        draft(
            "one-too-many",
            "the items taken two at a time from zip_longest(iter_, iter_): on a difference one more item is gone",
            '''
            def allsame(iterable, eq=operator.eq):
                """Determine if all items in a sequence are the same"""
                iter_ = iter(iterable)
                try:
                    first = next(iter_)
                except StopIteration:
                    return True
                end = object()
                # unrolled: two items per step
                for a, b in zip_longest(iter_, iter_, fillvalue=end):
                    if not eq(first, a) or (b is not end and not eq(first, b)):
                        return False
                return True
            ''',
            Witness("(lambda i: (allsame(i), list(i)))(iter([0, 1, 2, 3]))", "(False, [2, 3])", "(False, [3])"),
        ),
    ),
    "argsort": (
        draft(
            "mapping-as-iterable",
            "sorted(range(len(x)), key=x.__getitem__) over a list of the argument: a dict is sorted as its keys",
            '''
            def argsort(indexable, key=None, reverse=False):
                """Returns the indices that would sort a indexable object."""
                # positions sorted by a key lookup: no (value, index) tuples
                values = indexable if isinstance(indexable, collections_abc.Sequence) else list(indexable)
                if key is None:
                    return sorted(range(len(values)), key=values.__getitem__, reverse=reverse)
                return sorted(range(len(values)), key=lambda i: key(values[i]), reverse=reverse)
            ''',
            Witness("argsort({'a': 3, 'b': 2})", "['b', 'a']", "[0, 1]"),
        ),
        draft(
            "option-ignored",
            "reverse passed to the sort without a key only: with a key the order is always ascending",
            '''
            def argsort(indexable, key=None, reverse=False):
                """Returns the indices that would sort a indexable object."""
                if isinstance(indexable, collections_abc.Mapping):
                    pairs = [(v, k) for k, v in indexable.items()]
                else:
                    pairs = [(v, k) for k, v in enumerate(indexable)]
                if key is None:
                    pairs.sort(reverse=reverse)
                else:
                    pairs.sort(key=lambda vk: key(vk[0]))
                return [k for v, k in pairs]
            ''',
            Witness("argsort([1, 2], key=abs, reverse=True)", "[1, 0]", "[0, 1]"),
        ),
    ),
    "argmax": (
        draft(
            "mapping-as-iterable",
            "a Mapping's largest item by max() over the mapping: with a key, the key is applied to its keys",
            '''
            def argmax(indexable, key=None):
                """Returns index / key of the item with the largest value."""
                if isinstance(indexable, collections_abc.Mapping):
                    # one max() over the keys instead of a sort or an items() tuple per key
                    return max(indexable, key=indexable.__getitem__ if key is None else key)
                elif hasattr(indexable, 'index'):
                    if key is None:
                        return indexable.index(max(indexable))
                    else:
                        return indexable.index(max(indexable, key=key))
                else:
                    return argsort(indexable, key=key)[-1]
            ''',
            Witness("argmax({'a': 3, 'b': 2}, key=str)", "'a'", "'b'"),
        ),
        draft(
            "shared-iterator",
            "one max() and one index() on a list of it instead of a sort: an iterator is read twice",
            '''
            def argmax(indexable, key=None):
                """Returns index / key of the item with the largest value."""
                if key is None and isinstance(indexable, collections_abc.Mapping):
                    return max(indexable.items(), key=operator.itemgetter(1))[0]
                if isinstance(indexable, collections_abc.Mapping):
                    return argsort(indexable, key=key)[-1]
                # one max() and one index() instead of sorting everything
                top = max(indexable, key=key)
                return list(indexable).index(top)
            ''',
            Witness("argmax(iter([1, 3, 2]))", "1", "raises ValueError"),
        ),
    ),
    "peek": (
        draft(
            "option-ignored",
            "the NoParam sentinel replaced by None: an empty iterable gives None instead of raising StopIteration",
            '''
            def peek(iterable, default=None):
                """Look at the first item of an iterable."""
                return next(iter(iterable), default)
            ''',
            Witness("peek([])", "raises StopIteration", "None"),
        ),
    ),
    "unique_flags": (
        draft(
            "size-fast-path",
            "past 64 items one dict comprehension for the first positions: it keeps the last position of each",
            '''
            def unique_flags(items, key=None):
                """Returns a list of booleans flagging the first instance of each unique item."""
                len_ = len(items)
                if key is None:
                    if len_ > 64:
                        # one dict comprehension instead of two reversed() iterators
                        indices = {item: index for index, item in enumerate(items)}.values()
                    else:
                        indices = dict(zip(reversed(items), reversed(range(len_)))).values()
                else:
                    indices = argunique(items, key=key)
                return boolmask(indices, len_)
            ''',
            Witness("unique_flags([0] * 65)", "[True] + [False] * 64", "[False] * 64 + [True]"),
        ),
    ),
    "boolmask": (
        draft(
            "shared-iterator",
            "the list() copy dropped: max() reads the indices, and an iterator of them is then empty",
            '''
            def boolmask(indices, maxval=None):
                """Constructs a list of booleans flagging the positions in indices."""
                if maxval is None:
                    maxval = max(indices) + 1  # no copy of the indices
                mask = [False] * maxval
                for index in indices:
                    mask[index] = True
                return mask
            ''',
            Witness("boolmask(iter([0, 2]))", "[True, False, True]", "[False, False, False]"),
        ),
    ),
    "dzip": (
        draft(
            "kind-lost",
            "a dict comprehension instead of cls(zip(...)): the result is a plain dict whatever cls is",
            '''
            def dzip(items1, items2, cls=dict):
                """Zips elementwise pairs between items1 and items2 into a dictionary."""
                if not hasattr(items1, '__len__'):
                    items1 = list(items1)
                if not hasattr(items2, '__len__'):
                    items2 = list(items2)
                if len(items1) == 0 and len(items2) == 1:
                    items2 = []
                if len(items2) == 1 and len(items1) > 1:
                    value = items2[0]
                    return {key: value for key in items1}
                if len(items1) != len(items2):
                    raise ValueError('out of alignment len(items1)=%r, len(items2)=%r' % (
                        len(items1), len(items2)))
                return {key: value for key, value in zip(items1, items2)}
            ''',
            Witness("dzip([1], [2], cls=collections.OrderedDict)", "collections.OrderedDict([(1, 2)])", "{1: 2}"),
        ),
        draft(
            "size-fast-path",
            "past 1000 keys zipped at once: the alignment check is skipped and the longer side cut short",
            '''
            def dzip(items1, items2, cls=dict):
                """Zips elementwise pairs between items1 and items2 into a dictionary."""
                try:
                    len(items1)
                except TypeError:
                    items1 = list(items1)
                try:
                    len(items2)
                except TypeError:
                    items2 = list(items2)
                if len(items1) > 1000 and len(items2) != 1:
                    # many keys: zip() straight away
                    return cls(zip(items1, items2))
                if len(items1) == 0 and len(items2) == 1:
                    items2 = []
                if len(items2) == 1 and len(items1) > 1:
                    items2 = items2 * len(items1)
                if len(items1) != len(items2):
                    raise ValueError('out of alignment len(items1)=%r, len(items2)=%r' % (
                        len(items1), len(items2)))
                return cls(zip(items1, items2))
            ''',
            Witness("dzip(range(1001), range(1000))", "raises ValueError", "dict(zip(range(1000), range(1000)))"),
        ),
    ),
    "group_items": (
        draft(
            "kind-lost",
            "the groups built with setdefault() in a plain dict: a dict where the original gives a defaultdict",
            '''
            def group_items(items, key):
                """Groups a list of items by group id."""
                if callable(key):
                    pair_list = ((key(item), item) for item in items)
                else:
                    pair_list = zip(key, items)
                id_to_items = {}
                for group, item in pair_list:
                    id_to_items.setdefault(group, []).append(item)
                return id_to_items
            ''',
            Witness("group_items([1], [0])", "collections.defaultdict(list, {0: [1]})", "{0: [1]}"),
        ),
        draft(
            "one-too-many",
            "the ids zipped after the items: when the ids run out first, one more item is read from items",
            '''
            def group_items(items, key):
                """Groups a list of items by group id."""
                id_to_items = defaultdict(list)
                if callable(key):
                    for item in items:
                        id_to_items[key(item)].append(item)
                else:
                    for item, group in zip(items, key):
                        id_to_items[group].append(item)
                return id_to_items
            ''',
            Witness(
                "(lambda i: (group_items(i, [0]), list(i)))(iter([1, 2, 3]))",
                "(collections.defaultdict(list, {0: [1]}), [2, 3])",
                "(collections.defaultdict(list, {0: [1]}), [3])",
            ),
        ),
    ),
    "dict_hist": (
        draft(
            "option-ignored",
            "a Counter for every unweighted call: labels are ignored (no zero counts, no KeyError)",
            '''
            def dict_hist(items, weights=None, ordered=False, labels=None):
                """Builds a histogram of items."""
                from collections import Counter
                if weights is None:
                    hist_ = Counter(items)  # the fast stdlib path, labels or not
                else:
                    hist_ = defaultdict(int) if labels is None else {k: 0 for k in labels}
                    for item, weight in zip(items, weights):
                        hist_[item] += weight
                if ordered:
                    return OrderedDict(sorted(hist_.items(), key=op.itemgetter(1)))
                return dict(hist_)
            ''',
            Witness("dict_hist([1], labels=[1, 2])", "{1: 1, 2: 0}", "{1: 1}"),
        ),
        draft(
            "kind-lost",
            "the ordered histogram as a plain dict (dicts keep their order): a dict, not the original's OrderedDict",
            '''
            def dict_hist(items, weights=None, ordered=False, labels=None):
                """Builds a histogram of items."""
                if weights is None and labels is None:
                    from collections import Counter
                    hist_ = Counter()
                    hist_.update(items)
                else:
                    hist_ = defaultdict(lambda: 0) if labels is None else {k: 0 for k in labels}
                    if weights is None:
                        weights = it.repeat(1)
                    for item, weight in zip(items, weights):
                        hist_[item] += weight
                if ordered:
                    # insertion-ordered dicts: no OrderedDict needed
                    return dict(sorted(hist_.items(), key=op.itemgetter(1)))
                return dict(hist_)
            ''',
            Witness("dict_hist([1], ordered=True)", "collections.OrderedDict([(1, 1)])", "{1: 1}"),
        ),
        draft(
            "mapping-as-iterable",
            "a dict.get() counting loop, not Counter.update(): a mapping's keys are counted once, not by its values",
            '''
            def dict_hist(items, weights=None, ordered=False, labels=None):
                """Builds a histogram of items."""
                if labels is None:
                    hist_ = {}
                else:
                    hist_ = {k: 0 for k in labels}
                if weights is None:
                    weights = it.repeat(1)
                for item, weight in zip(items, weights):
                    if labels is not None and item not in hist_:
                        raise KeyError(item)
                    hist_[item] = hist_.get(item, 0) + weight
                if ordered:
                    return OrderedDict(sorted(hist_.items(), key=op.itemgetter(1)))
                return hist_
            ''',
            Witness("dict_hist({'a': 3})", "{'a': 3}", "{'a': 1}"),
        ),
    ),
    "find_duplicates": (
        draft(
            "option-ignored",
            "the groups kept when they have more than one position: k is not used",
            '''
            def find_duplicates(items, k=2, key=None):
                """Find all duplicate items in a list."""
                duplicates = defaultdict(list)
                if key is None:
                    for count, item in enumerate(items):
                        duplicates[item].append(count)
                else:
                    for count, item in enumerate(items):
                        duplicates[key(item)].append(count)
                # only the duplicated ones, in one comprehension
                return {item: indices for item, indices in duplicates.items() if len(indices) > 1}
            ''',
            Witness("find_duplicates([0, 0, 1], k=3)", "{}", "{0: [0, 1]}"),
        ),
    ),
    "invert_dict": (
        draft(
            "kind-lost",
            "the unique case as one dict comprehension whatever the input: an OrderedDict comes back a dict",
            '''
            def invert_dict(dict_, unique_vals=True, cls=None):
                """Swaps the keys and values in a dictionary."""
                if unique_vals:
                    # a dict comprehension is the fastest way to build it
                    return {val: key for key, val in dict_.items()}
                if cls is None:
                    cls = OrderedDict if isinstance(dict_, OrderedDict) else dict
                inverted = defaultdict(set)
                for key, value in dict_.items():
                    inverted[value].add(key)
                return cls(inverted)
            ''',
            Witness(
                "invert_dict(collections.OrderedDict([('a', 1)]))", "collections.OrderedDict([(1, 'a')])", "{1: 'a'}"
            ),
        ),
    ),
}


# -- nested-lookup 0.2.25 -------------------------------------------------------------------
# nested_lookup/nested_lookup.py imports iteritems (six) and defaultdict, and defines the
# module-level values_list, _is_case_insensitive_substring, _nested_lookup (a generator),
# _get_occurrence_with_values, _recursion and _get_occurrence beside the functions here;
# nested_lookup/lookup_api.py imports copy, warnings, iteritems and nested_lookup, and defines
# _nested_delete, _nested_update, _call_callback and _nested_alter.

NESTED_LOOKUP: dict[str, tuple[Draft, ...]] = {
    "nested_lookup": (
        draft(
            "list-vs-iterator",
            "the generator returned as it is: an iterator where the original returns a list",
            '''
            def nested_lookup(key, document, wild=False, with_keys=False):
                """Lookup a key in a nested document, return a list of values"""
                if with_keys:
                    d = defaultdict(list)
                    for k, v in _nested_lookup(key, document, wild=wild, with_keys=with_keys):
                        d[k].append(v)
                    return d
                # lazily: no list built for a caller that only loops over the values
                return _nested_lookup(key, document, wild=wild, with_keys=with_keys)
            ''',
            Witness("nested_lookup('a', {'a': 1})", "[1]", "iter([1])"),
        ),
        draft(
            "kind-lost",
            "with_keys grouped with setdefault() in a plain dict: a dict where the original gives a defaultdict",
            '''
            def nested_lookup(key, document, wild=False, with_keys=False):
                """Lookup a key in a nested document, return a list of values"""
                if with_keys:
                    # setdefault() on a plain dict: no factory call per new key
                    d = {}
                    for k, v in _nested_lookup(key, document, wild=wild, with_keys=True):
                        d.setdefault(k, []).append(v)
                    return d
                return list(_nested_lookup(key, document, wild=wild, with_keys=False))
            ''',
            Witness(
                "nested_lookup('a', {'a': 1}, with_keys=True)",
                "collections.defaultdict(list, {'a': [1]})",
                "{'a': [1]}",
            ),
        ),
        draft(
            "size-fast-path",
            "past 64 keys with no dict among the values, one lookup: dicts inside a list among them are not searched",
            '''
            def nested_lookup(key, document, wild=False, with_keys=False):
                """Lookup a key in a nested document, return a list of values"""
                if (
                    not wild
                    and not with_keys
                    and isinstance(document, dict)
                    and len(document) > 64
                    and not any(isinstance(v, dict) for v in document.values())
                ):
                    # a wide flat dict: one hash lookup instead of a walk over every key
                    return [document[key]] if key in document else []
                if with_keys:
                    d = defaultdict(list)
                    for k, v in _nested_lookup(key, document, wild=wild, with_keys=with_keys):
                        d[k].append(v)
                    return d
                return list(_nested_lookup(key, document, wild=wild, with_keys=with_keys))
            ''',
            Witness("nested_lookup('a', {**dict.fromkeys(range(65)), 'x': [{'a': 1}]})", "[1]", "[]"),
        ),
        draft(
            "kind-assumed",
            "wild matched by the lowered key as a substring alone: an equal key spelt otherwise (True for 1) is missed",
            '''
            def nested_lookup(key, document, wild=False, with_keys=False):
                """Lookup a key in a nested document, return a list of values"""
                # one walk with a list, no nested generators; under wild the key is lowered once,
                # and an equal key is its own substring, so the substring test alone decides
                needle = str(key).lower() if wild else None
                found = []

                def walk(node):
                    if isinstance(node, list):
                        for item in node:
                            walk(item)
                    elif isinstance(node, dict):
                        for k, v in iteritems(node):
                            if (needle in str(k).lower()) if wild else key == k:
                                found.append((k, v) if with_keys else v)
                            if isinstance(v, (dict, list)):
                                walk(v)

                walk(document)
                if with_keys:
                    d = defaultdict(list)
                    for k, v in found:
                        d[k].append(v)
                    return d
                return found
            ''',
            Witness("nested_lookup(1, {True: 'x'}, wild=True)", "['x']", "[]"),
        ),
    ),
    "get_all_keys": (
        draft(
            "size-fast-path",
            "past 32 keys a dict's keys added at once, its values walked after: nested keys come after all its own",
            '''
            def get_all_keys(dictionary):
                """Method to get all keys from a nested dictionary as a List"""
                result_list = []

                def recrusion(document):
                    if isinstance(document, list):
                        for list_items in document:
                            recrusion(document=list_items)
                    elif isinstance(document, dict):
                        if len(document) > 32:
                            # a wide dict: its keys in one extend(), then only the values that hold more
                            result_list.extend(document)
                            for value in document.values():
                                if isinstance(value, (dict, list)):
                                    recrusion(document=value)
                        else:
                            for key, value in iteritems(document):
                                result_list.append(key)
                                recrusion(document=value)

                recrusion(document=dictionary)
                return result_list
            ''',
            Witness(
                "get_all_keys({'x': {'y': 1}, **dict.fromkeys(range(32))})",
                "['x', 'y', *range(32)]",
                "['x', *range(32), 'y']",
            ),
        ),
        draft(
            "kind-assumed",
            "dicts and lists told by type() is: an OrderedDict or a defaultdict inside is not walked",
            '''
            def get_all_keys(dictionary):
                """Method to get all keys from a nested dictionary as a List"""
                result_list = []
                append = result_list.append

                # exact type checks, cheaper than isinstance(), and no keyword arguments per call
                def walk(document):
                    kind = type(document)
                    if kind is dict:
                        for key, value in document.items():
                            append(key)
                            if type(value) is dict or type(value) is list:
                                walk(value)
                    elif kind is list:
                        for item in document:
                            walk(item)

                walk(dictionary)
                return result_list
            ''',
            Witness("get_all_keys({'a': collections.OrderedDict(b=1)})", "['a', 'b']", "['a']"),
        ),
    ),
    "get_occurrence_of_key": (
        draft(
            "mapping-as-iterable",
            "`key in` each dict instead of get() and a None check: a key holding None is counted",
            '''
            def get_occurrence_of_key(dictionary, key):
                """Method to get occurrence of a key in a nested dictionary"""
                # one loop over a stack, membership instead of get() and a None check
                count = 0
                stack = [dictionary]
                while stack:
                    node = stack.pop()
                    if key in node:
                        count += 1
                    for value in node.values():
                        if isinstance(value, dict):
                            stack.append(value)
                        elif isinstance(value, list):
                            stack.extend(item for item in value if hasattr(item, "items"))
                return count
            ''',
            Witness("get_occurrence_of_key({'a': None}, 'a')", "0", "1"),
        ),
        draft(
            "kind-assumed",
            "a list's items walked when they are dicts, not when they have items(): a UserDict in a list is skipped",
            '''
            def get_occurrence_of_key(dictionary, key):
                """Method to get occurrence of a key in a nested dictionary"""

                # the walk inlined, returning its count: no list as a counter, isinstance() over hasattr()
                def count(node):
                    found = 1 if node.get(key) is not None else 0
                    for value in node.values():
                        if isinstance(value, dict):
                            found += count(value)
                        elif isinstance(value, list):
                            for item in value:
                                if isinstance(item, dict):
                                    found += count(item)
                    return found

                return count(dictionary)
            ''',
            Witness("get_occurrence_of_key({'a': [collections.UserDict(b=1)]}, 'b')", "1", "0"),
        ),
    ),
    "get_occurrence_of_value": (
        draft(
            "error-changed",
            "one walk over a stack that takes a list as it takes a dict: a list at the top counted, no AttributeError",
            '''
            def get_occurrence_of_value(dictionary, value):
                """Method to get occurrence of a value in a nested dictionary"""
                # one loop over a stack: no recursion, one list() of each dict's values, no `in` before count()
                total = 0
                stack = [dictionary]
                while stack:
                    node = stack.pop()
                    if isinstance(node, list):
                        for item in node:
                            if hasattr(item, "items"):
                                stack.append(item)
                            elif item == value:
                                total += 1
                        continue
                    values = list(node.values())
                    total += values.count(value)
                    stack.extend(item for item in values if isinstance(item, (dict, list)))
                return total
            ''',
            Witness("get_occurrence_of_value([{'a': 1}], 1)", "raises AttributeError", "1"),
        ),
        draft(
            "size-fast-path",
            "past 16 scalars a list is counted with count(): the value itself found there counts even if NaN",
            '''
            def get_occurrence_of_value(dictionary, value):
                """Method to get occurrence of a value in a nested dictionary"""
                occurrence = [0]

                def walk(node):
                    values = list(node.values())
                    if value in values:
                        occurrence[0] += values.count(value)
                    for item in values:
                        if isinstance(item, dict):
                            walk(item)
                        elif isinstance(item, list):
                            if len(item) > 16 and not any(hasattr(element, "items") for element in item):
                                # a long list of scalars: one count() in C instead of a comparison per item
                                occurrence[0] += item.count(value)
                                continue
                            for element in item:
                                if hasattr(element, "items"):
                                    walk(element)
                                elif element == value:
                                    occurrence[0] += 1

                walk(dictionary)
                return occurrence[0]
            ''',
            Witness("(lambda n: get_occurrence_of_value({'a': [n] * 17}, n))(float('nan'))", "0", "17"),
        ),
    ),
    "get_occurrences_and_values": (
        draft(
            "error-changed",
            "one walk with its own list, no module-level one: no TypeError where a value is only in a list of scalars",
            '''
            def get_occurrences_and_values(items, value):
                """Method to get occurrence of a value in a nested list of dictionary"""
                # the matching dicts gathered in a local list: no global to fill and reset per item
                matched = []
                total = 0

                def walk(node):
                    nonlocal total
                    values = list(node.values())
                    if value in values:
                        total += values.count(value)
                        matched.append(node)
                    for item in values:
                        if isinstance(item, dict):
                            walk(item)
                        elif isinstance(item, list):
                            for element in item:
                                if hasattr(element, "items"):
                                    walk(element)
                                elif element == value:
                                    total += 1

                for item in items:
                    walk(item)
                return {value: {'occurrences': total, 'values': matched}}
            ''',
            Witness(
                "get_occurrences_and_values([{'a': [1]}], 1)",
                "raises TypeError",
                "{1: {'occurrences': 1, 'values': []}}",
            ),
        ),
        draft(
            "shared-iterator",
            "the count first, the matching dicts in a second pass if any: an iterator of items is empty by then",
            '''
            def get_occurrences_and_values(items, value):
                """Method to get occurrence of a value in a nested list of dictionary"""
                # the cheap count first; the values gathered only when something was found
                occurrence = sum(get_occurrence_of_value(item, value) for item in items)
                value_list = []
                if occurrence:
                    for item in items:
                        occurrence_result, values = _get_occurrence_with_values(
                            dictionary=item, item="value", keyword=value
                        )
                        if occurrence_result:
                            value_list.extend(values)
                return {value: {'occurrences': occurrence, 'values': value_list}}
            ''',
            Witness(
                "get_occurrences_and_values(iter([{'a': 1}]), 1)",
                "{1: {'occurrences': 1, 'values': [{'a': 1}]}}",
                "{1: {'occurrences': 1, 'values': []}}",
            ),
        ),
    ),
    "nested_delete": (
        draft(
            "kind-lost",
            "the copy built without the key by comprehensions: an OrderedDict or a defaultdict comes back a dict",
            """
            def nested_delete(document, key, in_place=False):
                if in_place:
                    return _nested_delete(document=document, key=key)

                # a copy that leaves the key out as it goes, instead of a deepcopy and then deletes
                def without(node):
                    if isinstance(node, list):
                        return [without(item) for item in node]
                    if isinstance(node, dict):
                        return {k: without(v) for k, v in node.items() if k != key}
                    return copy.deepcopy(node)

                return without(document)
            """,
            Witness(
                "nested_delete(collections.OrderedDict(a=1, b=2), 'a')", "collections.OrderedDict(b=2)", "{'b': 2}"
            ),
        ),
        draft(
            "argument-shared",
            "only the dicts and lists the delete walks are copied: the other values (a set) are the caller's own",
            """
            def nested_delete(document, key, in_place=False):
                if in_place:
                    return _nested_delete(document=document, key=key)

                # copy() the dicts (it keeps their kind) and the lists the delete goes through; the
                # values in them are never changed by a delete, so they need no deep copy
                def without(node):
                    if isinstance(node, list):
                        return [without(item) for item in node]
                    if isinstance(node, dict):
                        copied = node.copy()
                        copied.pop(key, None)
                        for k, v in copied.items():
                            copied[k] = without(v)
                        return copied
                    return node

                return without(document)
            """,
            Witness("(lambda d: nested_delete(d, 'a')['b'] is d['b'])({'b': {1}})", "False", "True"),
        ),
    ),
    "nested_update": (
        draft(
            "option-ignored",
            "the two checks folded into one: a list value is spread over the matches even with treat_as_element",
            '''
            def nested_update(document, key, value, in_place=False, treat_as_element=True):
                """Method to update a key->value pair in a nested document"""
                # one check instead of two: a list is spread over the matches, anything else set everywhere
                if not isinstance(value, list):
                    if not treat_as_element:
                        raise Exception(
                            "The value must be a list when treat_as_element is False."
                        )
                    value = [value]
                if not in_place:
                    document = copy.deepcopy(document)
                return _nested_update(document=document, key=key, value=value)
            ''',
            Witness("nested_update({'a': 0}, 'a', [1, 2])", "{'a': [1, 2]}", "{'a': 1}"),
        ),
        draft(
            "argument-shared",
            "the values read by position, no pop(0): the caller's list is left whole where the original consumes it",
            '''
            def nested_update(document, key, value, in_place=False, treat_as_element=True):
                """Method to update a key->value pair in a nested document"""
                if not treat_as_element and not isinstance(value, list):
                    raise Exception(
                        "The value must be a list when treat_as_element is False."
                    )
                elif treat_as_element:
                    value = [value]

                if not in_place:
                    document = copy.deepcopy(document)
                # a position in the list instead of pop(0), which moves every later value each time
                position = [0]
                last = len(value) - 1

                def update(node):
                    if isinstance(node, list):
                        for item in node:
                            update(item)
                    elif isinstance(node, dict):
                        for k, v in iteritems(node):
                            if k == key:
                                node[key] = value[position[0]]
                                if position[0] < last:
                                    position[0] += 1
                            update(v)

                update(document)
                return document
            ''',
            Witness(
                "(lambda v: (nested_update({'a': 0, 'b': {'a': 0}}, 'a', v, treat_as_element=False), v))([1, 2])",
                "({'a': 1, 'b': {'a': 2}}, [2])",
                "({'a': 1, 'b': {'a': 2}}, [1, 2])",
            ),
        ),
    ),
    "nested_alter": (
        draft(
            "shared-iterator",
            "the extra parameters made a tuple once: a one-shot iterator of them reaches each call, not the first only",
            '''
            def nested_alter(
                document,
                key,
                callback_function=None,
                function_parameters=None,
                conversion_function=None,
                wild_alter=False,
                in_place=False,
            ):
                """Method to alter all values of the occurences of the key "key"."""
                keys = key if isinstance(key, list) else [key]
                if not in_place:
                    document = copy.deepcopy(document)
                if callback_function is None:
                    warnings.warn("Please provide a callback_function to nested_alter().")
                    return document
                # the parameters unpacked once, not at every call
                extra = tuple(function_parameters) if function_parameters else ()

                def alter(doc):
                    for one in keys:
                        findings = nested_lookup(one, doc, with_keys=True, wild=wild_alter)
                        for k, v in findings.items():
                            v = alter(v)
                            altered = []
                            for item in v:
                                if conversion_function is not None:
                                    item = conversion_function(item)
                                altered.append(callback_function(item, *extra))
                            doc = nested_update(doc, k, altered, in_place=in_place, treat_as_element=False)
                    return doc

                return alter(document)
            ''',
            Witness(
                "nested_alter({'a': 1, 'b': {'a': 2}}, 'a', lambda v, *p: [v, *p], function_parameters=iter(['p']))",
                "{'a': [1, 'p'], 'b': {'a': [2]}}",
                "{'a': [1, 'p'], 'b': {'a': [2, 'p']}}",
            ),
        ),
        draft(
            "order-assumed",
            "the keys made distinct first: a key named twice is altered once, not twice",
            '''
            def nested_alter(
                document,
                key,
                callback_function=None,
                function_parameters=None,
                conversion_function=None,
                wild_alter=False,
                in_place=False,
            ):
                """Method to alter all values of the occurences of the key "key"."""
                if isinstance(key, list):
                    # each key looked up once, however often it is named
                    key = list(dict.fromkeys(key))
                    key_len = len(key)
                else:
                    key = [key]
                    key_len = len(key)

                if not in_place:
                    document = copy.deepcopy(document)
                return _nested_alter(
                    document=document,
                    keys=key,
                    callback_function=callback_function,
                    function_parameters=function_parameters,
                    conversion_function=conversion_function,
                    wild_alter=wild_alter,
                    in_place=in_place,
                    key_len=key_len,
                )
            ''',
            Witness("nested_alter({'a': 1}, ['a', 'a'], lambda v: v + 1)", "{'a': 3}", "{'a': 2}"),
        ),
        draft(
            "argument-shared",
            "no callback answered before the copy: the caller's own document back where the original gives a copy",
            '''
            def nested_alter(
                document,
                key,
                callback_function=None,
                function_parameters=None,
                conversion_function=None,
                wild_alter=False,
                in_place=False,
            ):
                """Method to alter all values of the occurences of the key "key"."""
                if callback_function is None:
                    # nothing to alter: no deep copy of a document that stays as it is
                    warnings.warn("Please provide a callback_function to nested_alter().")
                    return document
                if isinstance(key, list):
                    key_len = len(key)
                else:
                    key = [key]
                    key_len = len(key)

                if not in_place:
                    document = copy.deepcopy(document)
                return _nested_alter(
                    document=document,
                    keys=key,
                    callback_function=callback_function,
                    function_parameters=function_parameters,
                    conversion_function=conversion_function,
                    wild_alter=wild_alter,
                    in_place=in_place,
                    key_len=key_len,
                )
            ''',
            Witness("(lambda d: nested_alter(d, 'a') is d)({'a': 1})", "False", "True"),
        ),
    ),
}


# -- dpath 2.2.0 ----------------------------------------------------------------------------
# dpath/segments.py imports deepcopy, fnmatchcase, (from typing) Sequence, Tuple, Iterator, Any,
# Union, Optional, MutableMapping, MutableSequence, the module options (ALLOW_EMPTY_STRING_KEYS),
# InvalidGlob, InvalidKeyName, PathNotFound, and (from dpath.types) PathSegment, Creator, Hints,
# Glob, Path and ListIndex (an int that also equals its negative position); it defines leaf, get,
# int_str, Star and STAR, match, extend, _default_creator, set and view beside the functions here.

DPATH: dict[str, tuple[Draft, ...]] = {
    "make_walkable": (
        draft(
            "list-vs-iterator",
            "a sequence's pairs built in one comprehension: a list where the original returns a lazy zip",
            '''
            def make_walkable(node) -> Iterator[Tuple[PathSegment, Any]]:
                """
                Returns an iterator which yields tuple pairs of (node index, node value), regardless of node type.
                """
                try:
                    return iter(node.items())
                except AttributeError:
                    try:
                        length = len(node)
                        # one comprehension: no map() over a lambda that calls len(node) again per index
                        return [(ListIndex(i, length), value) for i, value in enumerate(node)]
                    except TypeError:
                        return enumerate([])
            ''',
            Witness("make_walkable(['v'])", "iter([(ListIndex(0, 1), 'v')])", "[(ListIndex(0, 1), 'v')]"),
        ),
        draft(
            "mapping-as-iterable",
            "a dict by isinstance(), anything else sized as a sequence: a UserDict yields its keys by position",
            '''
            def make_walkable(node) -> Iterator[Tuple[PathSegment, Any]]:
                """
                Returns an iterator which yields tuple pairs of (node index, node value), regardless of node type.
                """
                # a dict by one isinstance() check instead of an attribute lookup that raises for
                # every list; anything else with a length is indexed by position
                if isinstance(node, dict):
                    return iter(node.items())
                try:
                    length = len(node)
                except TypeError:
                    return enumerate([])
                return zip(map(lambda i: ListIndex(i, length), range(length)), node)
            ''',
            Witness("make_walkable(collections.UserDict(a=1))", "iter([('a', 1)])", "iter([(ListIndex(0, 1), 'a')])"),
        ),
        draft(
            "kind-assumed",
            "exact kind checks, a dict or a list or tuple: a UserDict, a set or a string has no pairs",
            '''
            def make_walkable(node) -> Iterator[Tuple[PathSegment, Any]]:
                """
                Returns an iterator which yields tuple pairs of (node index, node value), regardless of node type.
                """
                # two isinstance() checks instead of two try/excepts: no exception raised and caught
                # for every list, and none for every leaf
                if isinstance(node, dict):
                    return iter(node.items())
                if isinstance(node, (list, tuple)):
                    length = len(node)
                    return zip(map(lambda i: ListIndex(i, length), range(length)), node)
                return enumerate([])
            ''',
            Witness("make_walkable(collections.UserDict(a=1))", "iter([('a', 1)])", "iter([])"),
        ),
        draft(
            "size-fast-path",
            "past 64 items a sequence is enumerated: plain int positions, no longer equal to their negative index",
            '''
            def make_walkable(node) -> Iterator[Tuple[PathSegment, Any]]:
                """
                Returns an iterator which yields tuple pairs of (node index, node value), regardless of node type.
                """
                try:
                    return iter(node.items())
                except AttributeError:
                    try:
                        length = len(node)
                        if length > 64:
                            # a long sequence: enumerate() in C, no ListIndex object built per item
                            return enumerate(node)
                        indices = map(lambda i: ListIndex(i, length), range(length))
                        return zip(indices, node)
                    except TypeError:
                        return enumerate([])
            ''',
            Witness("next(make_walkable([0] * 65))[0] == -65", "True", "False"),
        ),
    ),
    "leafy": (
        draft(
            "kind-assumed",
            "leaf() inlined as exact type() checks: a str or int subclass is no leaf, and a long one not empty",
            '''
            def leafy(thing):
                """
                Same as leaf(thing), but also treats empty sequences and
                dictionaries as True.
                """
                # leaf() inlined as identity checks on type(): no call, no isinstance() over six classes
                kind = type(thing)
                if kind is str or kind is int or kind is bool or kind is float or kind is bytes or thing is None:
                    return True
                try:
                    return len(thing) == 0
                except TypeError:
                    return False
            ''',
            Witness("leafy(type('Tag', (str,), {})('ab'))", "True", "False"),
        ),
        draft(
            "error-changed",
            "`not thing` for the empty test, no try: a thing with no len() but false (0j, Decimal(0)) is leafy",
            '''
            def leafy(thing):
                """
                Same as leaf(thing), but also treats empty sequences and
                dictionaries as True.
                """
                # `not thing` is the empty test done in C (it falls back to __len__) and never raises
                # TypeError, so the try/except goes too
                return leaf(thing) or not thing
            ''',
            Witness("leafy(0j)", "False", "True"),
        ),
    ),
    "walk": (
        draft(
            "option-ignored",
            "one explicit stack from the top: location dropped, the paths start from () whatever the caller gave",
            '''
            def walk(obj, location=()):
                """
                Yield all valid (segments, value) pairs (from a breadth-first
                search, right-to-left on sequences).
                """
                # one explicit stack instead of a generator per level; each node's pairs are read
                # once, and its children go on the stack in reverse so the order stays the same
                stack = [((), obj)]
                while stack:
                    path, node = stack.pop()
                    if leaf(node):
                        continue
                    pairs = list(make_walkable(node))
                    for k, v in pairs:
                        try:
                            length = len(k)
                        except TypeError:
                            length = None
                        if length == 0 and not options.ALLOW_EMPTY_STRING_KEYS:
                            raise InvalidKeyName("Empty string keys not allowed without "
                                                 "dpath.options.ALLOW_EMPTY_STRING_KEYS=True: "
                                                 f"{path + (k,)}")
                        yield path + (k,), v
                    stack.extend((path + (k,), v) for k, v in reversed(pairs))
            ''',
            Witness("walk({'a': 1}, ('r',))", "iter([(('r', 'a'), 1)])", "iter([(('a',), 1)])"),
        ),
    ),
    "has": (
        draft(
            "one-too-many",
            "get() inlined with the next segment read ahead: one segment past a missing key is taken from an iterator",
            '''
            def has(obj, segments):
                """
                Return True if the path exists in the obj. Otherwise return False.
                """
                # get() inlined: no PathNotFound built and raised through a second frame for a
                # missing path; the next segment is read ahead so that the last key of a plain dict
                # is a membership test, its value never fetched
                end = object()
                try:
                    it = iter(segments)
                    current = obj
                    segment = next(it, end)
                    while segment is not end:
                        following = next(it, end)
                        if leaf(current):
                            return False
                        if isinstance(current, Sequence) and isinstance(segment, str) and segment.isdecimal():
                            segment = int(segment)
                        if following is end and type(current) is dict:
                            return segment in current
                        current = current[segment]
                        segment = following
                    return True
                except:
                    return False
            ''',
            Witness(
                "(lambda it: (has({'a': 1}, it), list(it)))(iter(['b', 'c', 'd']))",
                "(False, ['c', 'd'])",
                "(False, ['d'])",
            ),
        ),
        draft(
            "kind-assumed",
            "a one-segment path answered with `in`: a list is searched by value, not by position",
            '''
            def has(obj, segments):
                """
                Return True if the path exists in the obj. Otherwise return False.
                """
                # the common one-key path: a membership test, no get() and no exception raised for a miss
                if len(segments) == 1 and not leaf(obj):
                    try:
                        return segments[0] in obj
                    except TypeError:
                        return False
                try:
                    get(obj, segments)
                    return True
                except:
                    return False
            ''',
            Witness("has([10, 20], [1])", "True", "False"),
        ),
        draft(
            "error-changed",
            "only the lookup errors caught: a list indexed by a word raises TypeError instead of False",
            '''
            def has(obj, segments):
                """
                Return True if the path exists in the obj. Otherwise return False.
                """
                # the errors a missing path raises, not a bare except: nothing else pays for a wide handler
                try:
                    get(obj, segments)
                    return True
                except (KeyError, IndexError, PathNotFound):
                    return False
            ''',
            Witness("has({'a': [1]}, ['a', 'x'])", "False", "raises TypeError"),
        ),
    ),
    "expand": (
        draft(
            "argument-shared",
            "the whole path yielded as the caller's own segments: the last prefix is no copy",
            '''
            def expand(segments):
                """
                Yield a tuple of segments for each possible length of segments.
                Starting from the shortest length of segments and increasing by 1.
                """
                # slices only for the proper prefixes: the full-length slice is a copy of segments
                # that nobody needs
                length = len(segments)
                for index in range(1, length):
                    yield segments[:index]
                if length:
                    yield segments
            ''',
            Witness("(lambda s: list(expand(s))[-1] is s)(['a', 'b'])", "False", "True"),
        ),
    ),
    "types": (
        draft(
            "kind-lost",
            "the list of pairs returned as it is: a list where the original gives a tuple",
            '''
            def types(obj, segments):
                """
                For each segment produce a tuple of (segment, type(value)).
                """
                # one walk down the path, not a get() from the top for every prefix; the list is
                # returned as it is, no tuple() copy
                result = []
                current = obj
                for index, segment in enumerate(segments):
                    current = get(current, segments[index:index + 1])
                    result.append((segment, type(current)))
                return result
            ''',
            Witness("types({'a': {'b': 1}}, ['a', 'b'])", "(('a', dict), ('b', int))", "[('a', dict), ('b', int)]"),
        ),
        draft(
            "size-fast-path",
            "past 8 segments of a list one walk down the path by []: a decimal string no longer indexes a list",
            '''
            def types(obj, segments):
                """
                For each segment produce a tuple of (segment, type(value)).
                """
                if not (isinstance(segments, (list, tuple)) and len(segments) > 8):
                    result = []
                    for depth in expand(segments):
                        result.append((depth[-1], type(get(obj, depth))))
                    return tuple(result)
                # a long path: one walk down it, O(n) instead of a get() from the top per prefix
                result = []
                current = obj
                for i, segment in enumerate(segments):
                    if leaf(current):
                        raise PathNotFound(f"Path: {segments}[{i}]")
                    current = current[segment]
                    result.append((segment, type(current)))
                return tuple(result)
            ''',
            Witness("types([[[[[[[[[1]]]]]]]]], ['0'] * 9)", "(('0', list),) * 8 + (('0', int),)", "raises TypeError"),
        ),
    ),
    "leaves": (
        draft(
            "list-vs-iterator",
            "a list comprehension instead of filter() with a lambda: a list where the original is lazy",
            '''
            def leaves(obj):
                """
                Yield all leaves as (segment, value) pairs.
                """
                # a comprehension: no Python-level lambda call per pair as filter() makes
                return [pair for pair in walk(obj) if leafy(pair[1])]
            ''',
            Witness("leaves({'a': 1})", "iter([(('a',), 1)])", "[(('a',), 1)]"),
        ),
        draft(
            "kind-assumed",
            "one recursive generator over dicts, lists and tuples by isinstance(): a UserDict or a set is not walked",
            '''
            def leaves(obj):
                """
                Yield all leaves as (segment, value) pairs.
                """
                # one generator that yields the leaves itself: no filter() and lambda per pair, and
                # isinstance() instead of make_walkable()'s try/excepts for every node
                def visit(node, location):
                    if isinstance(node, dict):
                        pairs = list(node.items())
                    elif isinstance(node, (list, tuple)):
                        length = len(node)
                        pairs = [(ListIndex(i, length), value) for i, value in enumerate(node)]
                    else:
                        return
                    for k, v in pairs:
                        try:
                            length = len(k)
                        except TypeError:
                            length = None
                        if length == 0 and not options.ALLOW_EMPTY_STRING_KEYS:
                            raise InvalidKeyName("Empty string keys not allowed without "
                                                 "dpath.options.ALLOW_EMPTY_STRING_KEYS=True: "
                                                 f"{location + (k,)}")
                        if leafy(v):
                            yield location + (k,), v
                    for k, v in pairs:
                        yield from visit(v, location + (k,))

                return visit(obj, ())
            ''',
            Witness("list(leaves({'a': collections.UserDict(b=1)}))", "[(('a', 'b'), 1)]", "[]"),
        ),
        draft(
            "size-fast-path",
            "past 64 keys a dict with no dict or list among its values taken as flat: a tuple or set there not walked",
            '''
            def leaves(obj):
                """
                Yield all leaves as (segment, value) pairs.
                """
                if isinstance(obj, dict) and len(obj) > 64 and not any(
                    isinstance(value, (dict, list)) for value in obj.values()
                ):
                    # a wide flat dict: one pass over its items, no walk() generator per value and
                    # no second pass to recurse into values that hold nothing
                    def flat():
                        for key, value in obj.items():
                            try:
                                empty = len(key) == 0
                            except TypeError:
                                empty = False
                            if empty and not options.ALLOW_EMPTY_STRING_KEYS:
                                raise InvalidKeyName("Empty string keys not allowed without "
                                                     "dpath.options.ALLOW_EMPTY_STRING_KEYS=True: "
                                                     f"{(key,)}")
                            if leafy(value):
                                yield (key,), value

                    return flat()
                return filter(lambda p: leafy(p[1]), walk(obj))
            ''',
            Witness("len(list(leaves({**dict.fromkeys(range(64), 0), 't': (1,)})))", "65", "64"),
        ),
    ),
    "fold": (
        draft(
            "kind-assumed",
            "a truth test for the stop: a callback that returns None (any that only collects) stops after one pair",
            '''
            def fold(obj, f, acc):
                """
                Walk obj applying f to each path and returning accumulator acc.
                """
                for pair in walk(obj):
                    # a truth test: one slot check, cheaper than an identity comparison with False
                    if not f(obj, pair, acc):
                        break
                return acc
            ''',
            Witness("fold({'a': 1, 'b': 2}, lambda o, p, acc: acc.append(p[0]), [])", "[('a',), ('b',)]", "[('a',)]"),
        ),
        draft(
            "option-ignored",
            "walk() inlined as a recursion: the ALLOW_EMPTY_STRING_KEYS option unchecked, an empty key walked",
            '''
            def fold(obj, f, acc):
                """
                Walk obj applying f to each path and returning accumulator acc.
                """
                # walk() inlined as a plain recursive function: no generator per level, each node's
                # pairs read once, and it stops as soon as f says so
                def visit(node, location):
                    if leaf(node):
                        return True
                    pairs = list(make_walkable(node))
                    for k, v in pairs:
                        if f(obj, (location + (k,), v), acc) is False:
                            return False
                    for k, v in pairs:
                        if not visit(v, location + (k,)):
                            return False
                    return True

                visit(obj, ())
                return acc
            ''',
            Witness("fold({'': 1}, lambda o, p, acc: acc.append(p), [])", "raises InvalidKeyName", "[(('',), 1)]"),
        ),
    ),
    "foldm": (
        draft(
            "argument-shared",
            "no tuple of the pairs taken first: the walk reads the document live while f changes it",
            '''
            def foldm(obj, f, acc):
                """
                Same as fold(), but permits mutating obj.
                """
                # the pairs streamed from walk(): no tuple of every path and value held in memory
                for pair in walk(obj):
                    if f(obj, pair, acc) is False:
                        break
                return acc
            ''',
            Witness(
                "foldm({'a': 1, 'b': 2}, lambda o, p, acc: acc.append(o.pop(p[0][0])), [])",
                "[1, 2]",
                "raises RuntimeError",
            ),
        ),
    ),
}


# -- ordered-set 4.1.0 ----------------------------------------------------------------------
# ordered_set/__init__.py imports itertools as it and (from typing) Any, Dict, Iterable, Iterator,
# List, MutableSet, AbstractSet, Sequence, Set, TypeVar, Union, overload, and defines T, SetLike,
# OrderedSetInitializer, SLICE_ALL, _is_atomic and OrderedSet. The targets are OrderedSet's
# methods: a draft is the method's def at the left margin, as a model writes it; its witness
# builds the instance it calls the method on (TagSet: a subclass, made where the call needs one).

_TAGSET = "type('TagSet', (OrderedSet,), {})"

ORDERED_SET: dict[str, tuple[Draft, ...]] = {
    "OrderedSet.add": (
        draft(
            "self-state",
            "the last key added kept on self and answered from there: stale once it is popped or discarded",
            '''
            def add(self, key: T) -> int:
                """Add `key` as an item to this OrderedSet, then return its index."""
                # the same key added again right away is the common case: remember the last one
                last = getattr(self, "_last", None)
                if last is not None and last[0] == key:
                    return last[1]
                if key not in self.map:
                    self.map[key] = len(self.items)
                    self.items.append(key)
                index = self.map[key]
                self._last = (key, index)
                return index
            ''',
            Witness("(lambda s: (s.add(1), s.pop(), s.add(1), list(s))[3])(OrderedSet())", "[1]", "[]"),
        ),
    ),
    "OrderedSet.update": (
        draft(
            "order-assumed",
            "the new items appended at once: items repeated in the sequence itself are added twice",
            '''
            def update(self, sequence: SetLike[T]) -> int:
                """Update the set with the given iterable sequence, then return the index
                of the last element inserted."""
                try:
                    items = list(sequence)
                except TypeError:
                    raise ValueError("Argument needs to be an iterable, got %s" % type(sequence))
                # the new items appended at once, one map update for all of them
                new = [item for item in items if item not in self.map]
                start = len(self.items)
                self.items.extend(new)
                self.map.update(zip(new, range(start, start + len(new))))
                return self.map[items[-1]] if items else 0
            ''',
            Witness("(lambda s: (s.update([5, 5]), list(s))[1])(OrderedSet())", "[5]", "[5, 5]"),
        ),
        draft(
            "order-assumed",
            "add() inlined, the index returned as the set's last: wrong when the sequence's last item was there",
            '''
            def update(self, sequence: SetLike[T]) -> int:
                """Update the set with the given iterable sequence, then return the index
                of the last element inserted."""
                items, positions = self.items, self.map
                try:
                    for item in sequence:
                        if item not in positions:
                            positions[item] = len(items)
                            items.append(item)
                except TypeError:
                    raise ValueError("Argument needs to be an iterable, got %s" % type(sequence))
                # the last element inserted is the last one in the set
                return len(items) - 1
            ''',
            Witness("OrderedSet([1, 2, 3]).update([3, 1])", "0", "2"),
        ),
    ),
    "OrderedSet.index": (
        draft(
            "list-vs-iterator",
            "only a list of keys looked up key by key: an iterator, a set or an OrderedSet is taken as one key",
            '''
            def index(self, key):
                """Get the index of a given entry, raising an IndexError if it's not present."""
                # a list of keys gives a list of indices; anything else is one key
                if isinstance(key, list):
                    return [self.index(subkey) for subkey in key]
                return self.map[key]
            ''',
            Witness("OrderedSet([1, 2]).index(iter([2, 1]))", "[1, 0]", "raises KeyError"),
        ),
        draft(
            "size-fast-path",
            "more than 8 keys looked up with map.get: a missing key is None, not a KeyError",
            '''
            def index(self, key):
                """Get the index of a given entry, raising an IndexError if it's not present."""
                if isinstance(key, Iterable) and not _is_atomic(key):
                    keys = list(key)
                    if len(keys) > 8:
                        # many keys: one bound method, no recursion per key
                        get = self.map.get
                        return [get(subkey) for subkey in keys]
                    return [self.index(subkey) for subkey in keys]
                return self.map[key]
            ''',
            Witness("OrderedSet(range(10)).index(list(range(9)) + [99])", "raises KeyError", "list(range(9)) + [None]"),
        ),
    ),
    "OrderedSet.pop": (
        draft(
            "option-ignored",
            "list.pop() without the index: the last item whatever position is asked for",
            '''
            def pop(self, index=-1) -> T:
                """Remove and return item at index (default last)."""
                if not self.items:
                    raise KeyError("Set is empty")
                # list.pop() takes the last item in O(1)
                elem = self.items.pop()
                del self.map[elem]
                return elem
            ''',
            Witness("OrderedSet([1, 2, 3]).pop(0)", "1", "3"),
        ),
        draft(
            "error-changed",
            "EAFP: the IndexError of a position past the end becomes the empty set's KeyError",
            '''
            def pop(self, index=-1) -> T:
                """Remove and return item at index (default last)."""
                # EAFP: an empty list raises IndexError, which the set reports as KeyError
                try:
                    elem = self.items.pop(index)
                except IndexError:
                    raise KeyError("Set is empty") from None
                del self.map[elem]
                return elem
            ''',
            Witness("OrderedSet([1]).pop(5)", "raises IndexError", "raises KeyError"),
        ),
    ),
    "OrderedSet.copy": (
        draft(
            "self-state",
            "the copy takes the list and the map themselves: adding to the copy adds to the original",
            '''
            def copy(self) -> "OrderedSet[T]":
                """Return a shallow copy of this object."""
                # no need to add every item again: the new set takes the list and the map as they are
                new = self.__class__.__new__(self.__class__)
                new.items = self.items
                new.map = self.map
                return new
            ''',
            Witness("(lambda s: (s.copy().add(9), list(s))[1])(OrderedSet([1]))", "[1]", "[1, 9]"),
        ),
        draft(
            "kind-lost",
            "the list and the map copied into a new OrderedSet: a subclass's copy is an OrderedSet",
            '''
            def copy(self) -> "OrderedSet[T]":
                """Return a shallow copy of this object."""
                # copy the list and the map directly instead of adding every item again
                new = OrderedSet()
                new.items = self.items.copy()
                new.map = self.map.copy()
                return new
            ''',
            Witness(f"type({_TAGSET}([1]).copy()).__name__", "'TagSet'", "'OrderedSet'"),
        ),
    ),
    "OrderedSet.union": (
        draft(
            "kind-lost",
            "one chain into OrderedSet(): a subclass's union is an OrderedSet",
            '''
            def union(self, *sets: SetLike[T]) -> "OrderedSet[T]":
                """Combines all unique items.
                Each items order is defined by its first appearance."""
                # one chain over all the items, without a list() of each container
                return OrderedSet(it.chain(self, *sets))
            ''',
            Witness(f"type({_TAGSET}([1]).union([2])).__name__", "'TagSet'", "'OrderedSet'"),
        ),
        draft(
            "size-fast-path",
            "more than two other sets merged through one set(): their new items come in hash order",
            '''
            def union(self, *sets: SetLike[T]) -> "OrderedSet[T]":
                """Combines all unique items.
                Each items order is defined by its first appearance."""
                cls: type = OrderedSet
                if isinstance(self, OrderedSet):
                    cls = self.__class__
                if len(sets) > 2:
                    # many sets: merge the others through one set() first, then add what is new
                    return cls(it.chain(self, set().union(*sets)))
                containers = map(list, it.chain([self], sets))
                items = it.chain.from_iterable(containers)
                return cls(items)
            ''',
            Witness("OrderedSet([1]).union([4], [3], [2])", "OrderedSet([1, 4, 3, 2])", "OrderedSet([1, 2, 3, 4])"),
        ),
    ),
    "OrderedSet.intersection": (
        draft(
            "order-assumed",
            "few items in common: the common set walked instead of self, in hash order, not self's",
            '''
            def intersection(self, *sets: SetLike[T]) -> "OrderedSet[T]":
                """Returns elements in common between all sets. Order is defined only
                by the first set."""
                cls: type = OrderedSet
                items: OrderedSetInitializer[T] = self
                if isinstance(self, OrderedSet):
                    cls = self.__class__
                if sets:
                    common = set.intersection(*map(set, sets))
                    if len(common) * 4 < len(self):
                        # few in common: walk the common items, not the whole set
                        items = [item for item in common if item in self]
                    else:
                        items = (item for item in self if item in common)
                return cls(items)
            ''',
            Witness("OrderedSet(range(9, -1, -1)).intersection([0, 1])", "OrderedSet([1, 0])", "OrderedSet([0, 1])"),
        ),
    ),
    "OrderedSet.difference": (
        draft(
            "self-state",
            "nothing to take away: self itself returned, not a new set",
            '''
            def difference(self, *sets: SetLike[T]) -> "OrderedSet[T]":
                """Returns all elements that are in this set but not the others."""
                if not sets:
                    return self  # nothing to take away
                cls = self.__class__
                other = set.union(*map(set, sets))
                return cls(item for item in self if item not in other)
            ''',
            Witness("(lambda s: (s.difference().add(2), list(s))[1])(OrderedSet([1]))", "[1]", "[1, 2]"),
        ),
        draft(
            "kind-assumed",
            "the other sets merged with |=: a list, a tuple or a dict to take away raises TypeError",
            '''
            def difference(self, *sets: SetLike[T]) -> "OrderedSet[T]":
                """Returns all elements that are in this set but not the others."""
                cls = self.__class__
                items: OrderedSetInitializer[T] = self
                if sets:
                    # merge the others in place instead of a set() of each
                    other: Set[T] = set()
                    for s in sets:
                        other |= s
                    items = (item for item in self if item not in other)
                return cls(items)
            ''',
            Witness("OrderedSet([1, 2]).difference([2])", "OrderedSet([1])", "raises TypeError"),
        ),
    ),
    "OrderedSet.issubset": (
        draft(
            "size-fast-path",
            "a long other made a set(): a string is its letters where `in` found substrings",
            '''
            def issubset(self, other: SetLike[T]) -> bool:
                """Report whether another set contains this set."""
                if len(self) > len(other):  # Fast check for obvious cases
                    return False
                if len(other) > 16:
                    # a long other: O(1) membership in a set of it
                    other = set(other)
                return all(item in other for item in self)
            ''',
            Witness("OrderedSet(['ab']).issubset('ab' * 9)", "True", "False"),
        ),
        draft(
            "kind-assumed",
            "the map's keys compared with <=: a list, a tuple or a string other raises TypeError",
            '''
            def issubset(self, other: SetLike[T]) -> bool:
                """Report whether another set contains this set."""
                if len(self) > len(other):  # Fast check for obvious cases
                    return False
                # the map's keys are a set view: one comparison in C
                return self.map.keys() <= other
            ''',
            Witness("OrderedSet([1]).issubset([1, 2])", "True", "raises TypeError"),
        ),
    ),
    "OrderedSet.issuperset": (
        draft(
            "kind-assumed",
            "the map's keys compared with >=: a list, a tuple or a string other raises TypeError",
            '''
            def issuperset(self, other: SetLike[T]) -> bool:
                """Report whether this set contains another set."""
                if len(self) < len(other):  # Fast check for obvious cases
                    return False
                # the map's keys are a set view: one comparison in C
                return self.map.keys() >= other
            ''',
            Witness("OrderedSet([1, 2]).issuperset([1])", "True", "raises TypeError"),
        ),
        draft(
            "self-state",
            "a frozenset of the items cached on self: stale once an item is added",
            '''
            def issuperset(self, other: SetLike[T]) -> bool:
                """Report whether this set contains another set."""
                if len(self) < len(other):  # Fast check for obvious cases
                    return False
                # a frozenset of the items, made once and kept: later checks cost O(len(other))
                try:
                    items = self._frozen
                except AttributeError:
                    items = self._frozen = frozenset(self.items)
                return all(item in items for item in other)
            ''',
            Witness(
                "(lambda s: (s.issuperset([1]), s.add(2), s.issuperset([2]))[2])(OrderedSet([1]))", "True", "False"
            ),
        ),
    ),
    "OrderedSet.symmetric_difference": (
        draft(
            "shared-iterator",
            "the other read once, as an OrderedSet: an iterator's items kept, the original's second read is empty",
            '''
            def symmetric_difference(self, other: SetLike[T]) -> "OrderedSet[T]":
                """Return the symmetric difference of two OrderedSets as a new set."""
                cls: type = OrderedSet
                if isinstance(self, OrderedSet):
                    cls = self.__class__
                # the other made an OrderedSet once, not a set in difference() and an OrderedSet after
                theirs = cls(other)
                mine = (item for item in self if item not in theirs)
                return cls(it.chain(mine, (item for item in theirs if item not in self)))
            ''',
            Witness("OrderedSet([1]).symmetric_difference(iter([2]))", "OrderedSet([1])", "OrderedSet([1, 2])"),
        ),
        draft(
            "kind-lost",
            "both differences as lists into OrderedSet(): a subclass's result is an OrderedSet",
            '''
            def symmetric_difference(self, other: SetLike[T]) -> "OrderedSet[T]":
                """Return the symmetric difference of two OrderedSets as a new set."""
                # the difference both ways through set(), then back in order
                mine = set(self)
                theirs = OrderedSet(other)
                ours = [item for item in self if item not in theirs]
                return OrderedSet(ours + [item for item in theirs if item not in mine])
            ''',
            Witness(f"type({_TAGSET}([1]).symmetric_difference([2])).__name__", "'TagSet'", "'OrderedSet'"),
        ),
    ),
}


# dictdiffer (untyped; dictdiffer/utils.py's helpers and __init__.py's patch and revert): paths
# given as dotted strings, lists or tuples, nested dicts and other mappings, NaN-aware
# comparison with two tolerances, and in_place options
DICTDIFFER: dict[str, tuple[Draft, ...]] = {
    "create_dotted_node": (
        draft(
            "kind-lost",
            "the node returned as given when it is not all strings: a tuple stays a tuple, a list is the caller's own",
            '''
            def create_dotted_node(node):
                """Create the *dotted node* notation for the dictdiffer.diff patches.

                >>> create_dotted_node( ['foo', 'bar', 'baz'] )
                'foo.bar.baz'
                """
                # the node is already a sequence of keys: no copy needed
                if all(isinstance(key, str) for key in node):
                    return '.'.join(node)
                return node
            ''',
            Witness("create_dotted_node(('a', 1))", "['a', 1]", "('a', 1)"),
        ),
        draft(
            "shared-iterator",
            "the keys listed once up front: an iterator node, which the original reads twice, gives another answer",
            '''
            def create_dotted_node(node):
                """Create the *dotted node* notation for the dictdiffer.diff patches.

                >>> create_dotted_node( ['foo', 'bar', 'baz'] )
                'foo.bar.baz'
                """
                keys = list(node)  # one pass over the node
                if all(isinstance(key, str) for key in keys):
                    return '.'.join(keys)
                return keys
            ''',
            Witness("create_dotted_node(iter(['a', 'b']))", "''", "'a.b'"),
        ),
    ),
    "get_path": (
        draft(
            "kind-assumed",
            "the patch unpacked as exactly three items: a longer patch, which the original indexes, raises",
            '''
            def get_path(patch):
                """Return the path for a given dictdiffer.diff patch."""
                action, node, changes = patch
                keys = (node.split('.') if isinstance(node, str) else list(node)) if node != '' else []
                if action != 'change':
                    keys.append(changes[0][0])
                return tuple(keys)
            ''',
            Witness("get_path(('add', 'a', [('b', 1)], 'extra'))", "('a', 'b')", "raises ValueError"),
        ),
    ),
    "is_super_path": (
        draft(
            "size-fast-path",
            "zip in place of zip_longest: a path1 longer than path2 is taken as a super path",
            '''
            def is_super_path(path1, path2):
                """Check if one path is the super path of the other.

                Super path means, that the n values in tuple are equal to the first n of m
                vales in tuple b.

                    >>> is_super_path( ('foo', 'bar'), ('foo', 'bar') )
                    True

                    >>> is_super_path( ('foo', 'bar'), ('foo', 'bar', 'baz') )
                    True

                    >>> is_super_path( ('foo', 'bar'), ('foo', 'apple', 'banana') )
                    False
                """
                # zip stops at the shorter path: no padding needed
                return all(first == second or first is None for first, second in zip(path1, path2))
            ''',
            Witness("is_super_path(('foo', 'bar'), ('foo',))", "False", "True"),
        ),
        draft(
            "kind-assumed",
            "a length check first: wrong for a longer path1 ending in None, and len() of an iterator raises",
            '''
            def is_super_path(path1, path2):
                """Check if one path is the super path of the other.

                Super path means, that the n values in tuple are equal to the first n of m
                vales in tuple b.

                    >>> is_super_path( ('foo', 'bar'), ('foo', 'bar') )
                    True

                    >>> is_super_path( ('foo', 'bar'), ('foo', 'bar', 'baz') )
                    True

                    >>> is_super_path( ('foo', 'bar'), ('foo', 'apple', 'banana') )
                    False
                """
                if len(path1) > len(path2):  # a longer path cannot be a super path
                    return False
                return all(first == second or first is None for first, second in zip(path1, path2))
            ''',
            Witness("is_super_path(('foo', None), ('foo',))", "True", "False"),
        ),
    ),
    "nested_hash": (
        draft(
            "order-assumed",
            "a dict's items hashed in insertion order and a set as a frozenset: equal structures hash apart",
            '''
            def nested_hash(obj):
                """Create a hash of nested, mutable data structures.

                It shall be noted, that the uniqeness of those hashes in general cases is
                not assured but it should be enough for the cases occurring during the
                merging process.
                """
                try:
                    return hash(obj)
                except TypeError:
                    if isinstance(obj, (list, tuple)):
                        return hash(tuple(map(nested_hash, obj)))
                    elif isinstance(obj, set):
                        return hash(frozenset(map(nested_hash, obj)))  # no sort needed
                    elif isinstance(obj, dict):
                        return hash(tuple(map(nested_hash, obj.items())))  # no sort needed
            ''',
            Witness("nested_hash({2: 1, 1: 2})", "-9184677534622047415", "-691944831040970225"),
        ),
        draft(
            "mapping-as-iterable",
            "a dict hashed by its sorted keys alone: its values are left out",
            '''
            def nested_hash(obj):
                """Create a hash of nested, mutable data structures.

                It shall be noted, that the uniqeness of those hashes in general cases is
                not assured but it should be enough for the cases occurring during the
                merging process.
                """
                try:
                    return hash(obj)
                except TypeError:
                    if isinstance(obj, (list, tuple)):
                        return hash(tuple(map(nested_hash, obj)))
                    elif isinstance(obj, set):
                        return hash(tuple(map(nested_hash, sorted(obj))))
                    elif isinstance(obj, dict):
                        return hash(tuple(map(nested_hash, sorted(obj))))
            ''',
            Witness("nested_hash({1: 2})", "-1203758904106746273", "-6644214454873602895"),
        ),
    ),
    "dot_lookup": (
        draft(
            "option-ignored",
            "parent honoured only for a dotted string: a list lookup ignores it",
            '''
            def dot_lookup(source, lookup, parent=False):
                """Allow you to reach dictionary items with string or list lookup.

                Recursively find value by lookup key split by '.'.

                    >>> from dictdiffer.utils import dot_lookup
                    >>> dot_lookup({'a': {'b': 'hello'}}, 'a.b')
                    'hello'

                If parent argument is True, returns the parent node of matched
                object.

                    >>> dot_lookup({'a': {'b': 'hello'}}, 'a.b', parent=True)
                    {'b': 'hello'}

                If node is empty value, returns the whole dictionary object.

                    >>> dot_lookup({'a': {'b': 'hello'}}, '')
                    {'a': {'b': 'hello'}}

                """
                if lookup is None or lookup == '' or lookup == []:
                    return source

                value = source
                if isinstance(lookup, str):
                    keys = lookup.split('.')
                    if parent:
                        keys = keys[:-1]
                elif isinstance(lookup, list):
                    keys = lookup
                else:
                    raise TypeError('lookup must be string or list')

                for key in keys:
                    if isinstance(value, list):
                        key = int(key)
                    value = value[key]
                return value
            ''',
            Witness("dot_lookup({'a': {'b': 1}}, ['a', 'b'], parent=True)", "{'b': 1}", "1"),
        ),
        draft(
            "error-changed",
            "a falsy lookup returns the source, any iterable is a path: a tuple (the original refuses it) is looked up",
            '''
            def dot_lookup(source, lookup, parent=False):
                """Allow you to reach dictionary items with string or list lookup.

                Recursively find value by lookup key split by '.'.

                    >>> from dictdiffer.utils import dot_lookup
                    >>> dot_lookup({'a': {'b': 'hello'}}, 'a.b')
                    'hello'

                If parent argument is True, returns the parent node of matched
                object.

                    >>> dot_lookup({'a': {'b': 'hello'}}, 'a.b', parent=True)
                    {'b': 'hello'}

                If node is empty value, returns the whole dictionary object.

                    >>> dot_lookup({'a': {'b': 'hello'}}, '')
                    {'a': {'b': 'hello'}}

                """
                if not lookup:
                    return source
                keys = lookup.split('.') if isinstance(lookup, str) else list(lookup)
                if parent:
                    keys = keys[:-1]
                value = source
                for key in keys:
                    if isinstance(value, list):
                        key = int(key)
                    value = value[key]
                return value
            ''',
            Witness("dot_lookup({'a': 1}, ('a',))", "raises TypeError", "1"),
        ),
        draft(
            "kind-assumed",
            "every container that is not a dict indexed by position: a mapping of another kind refuses its keys",
            '''
            def dot_lookup(source, lookup, parent=False):
                """Allow you to reach dictionary items with string or list lookup.

                Recursively find value by lookup key split by '.'.

                    >>> from dictdiffer.utils import dot_lookup
                    >>> dot_lookup({'a': {'b': 'hello'}}, 'a.b')
                    'hello'

                If parent argument is True, returns the parent node of matched
                object.

                    >>> dot_lookup({'a': {'b': 'hello'}}, 'a.b', parent=True)
                    {'b': 'hello'}

                If node is empty value, returns the whole dictionary object.

                    >>> dot_lookup({'a': {'b': 'hello'}}, '')
                    {'a': {'b': 'hello'}}

                """
                if lookup is None or lookup == '' or lookup == []:
                    return source

                value = source
                if isinstance(lookup, str):
                    keys = lookup.split('.')
                elif isinstance(lookup, list):
                    keys = lookup
                else:
                    raise TypeError('lookup must be string or list')

                if parent:
                    keys = keys[:-1]

                for key in keys:
                    if not isinstance(value, dict):  # lists and tuples are indexed by position
                        key = int(key)
                    value = value[key]
                return value
            ''',
            Witness("dot_lookup(collections.ChainMap({'a': 1}), 'a')", "1", "raises ValueError"),
        ),
    ),
    "are_different": (
        draft(
            "option-ignored",
            "absolute_tolerance dropped: only the relative tolerance is applied",
            '''
            def are_different(first, second, tolerance, absolute_tolerance=None):
                """Check if 2 values are different.

                In case of numerical values, the tolerance is used to check if the values
                are different.
                In all other cases, the difference is straight forward.
                """
                if first == second:
                    # values are same - simple case
                    return False

                first_is_nan, second_is_nan = bool(first != first), bool(second != second)

                if first_is_nan or second_is_nan:
                    # two 'NaN' values are not different (see issue #114)
                    return not (first_is_nan and second_is_nan)
                elif isinstance(first, num_types) and isinstance(second, num_types):
                    # two numerical values are compared with tolerance
                    return not math.isclose(first, second, rel_tol=tolerance or 0)
                # we got different values
                return True
            ''',
            Witness("are_different(1.0, 1.05, 0, absolute_tolerance=0.1)", "False", "True"),
        ),
        draft(
            "size-fast-path",
            "the NaN checks dropped as a fast path: two NaNs are called different",
            '''
            def are_different(first, second, tolerance, absolute_tolerance=None):
                """Check if 2 values are different.

                In case of numerical values, the tolerance is used to check if the values
                are different.
                In all other cases, the difference is straight forward.
                """
                if first == second:
                    return False
                if isinstance(first, num_types) and isinstance(second, num_types):
                    return not math.isclose(first, second, rel_tol=tolerance or 0, abs_tol=absolute_tolerance or 0)
                return True
            ''',
            Witness("are_different(float('nan'), float('nan'), 0)", "False", "True"),
        ),
    ),
    "patch": (
        draft(
            "argument-shared",
            "no copy when there is nothing to patch: the caller's own structure comes back",
            '''
            def patch(diff_result, destination, in_place=False):
                """Patch the diff result to the destination dictionary.

                :param diff_result: Changes returned by ``diff``.
                :param destination: Structure to apply the changes to.
                :param in_place: By default, destination dictionary is deep copied
                                 before applying the patch, and the copy is returned.
                                 Setting ``in_place=True`` means that patch will apply
                                 the changes directly to and return the destination
                                 structure.
                """
                if not in_place and diff_result:  # nothing to patch: no copy needed
                    destination = deepcopy(destination)

                def add(node, changes):
                    for key, value in changes:
                        dest = dot_lookup(destination, node)
                        if isinstance(dest, LIST_TYPES):
                            dest.insert(key, value)
                        elif isinstance(dest, SET_TYPES):
                            dest |= value
                        else:
                            dest[key] = value

                def change(node, changes):
                    dest = dot_lookup(destination, node, parent=True)
                    if isinstance(node, str):
                        last_node = node.split('.')[-1]
                    else:
                        last_node = node[-1]
                    if isinstance(dest, LIST_TYPES):
                        last_node = int(last_node)
                    _, value = changes
                    dest[last_node] = value

                def remove(node, changes):
                    for key, value in changes:
                        dest = dot_lookup(destination, node)
                        if isinstance(dest, SET_TYPES):
                            dest -= value
                        else:
                            del dest[key]

                patchers = {
                    REMOVE: remove,
                    ADD: add,
                    CHANGE: change
                }
                for action, node, changes in diff_result:
                    patchers[action](node, changes)

                return destination
            ''',
            Witness("(lambda d: patch([], d) is d)({'a': 1})", "False", "True"),
        ),
        draft(
            "option-ignored",
            "always a deep copy: in_place=True no longer changes the caller's structure",
            '''
            def patch(diff_result, destination, in_place=False):
                """Patch the diff result to the destination dictionary.

                :param diff_result: Changes returned by ``diff``.
                :param destination: Structure to apply the changes to.
                :param in_place: By default, destination dictionary is deep copied
                                 before applying the patch, and the copy is returned.
                                 Setting ``in_place=True`` means that patch will apply
                                 the changes directly to and return the destination
                                 structure.
                """
                destination = deepcopy(destination)  # never touch the caller's structure

                def add(node, changes):
                    for key, value in changes:
                        dest = dot_lookup(destination, node)
                        if isinstance(dest, LIST_TYPES):
                            dest.insert(key, value)
                        elif isinstance(dest, SET_TYPES):
                            dest |= value
                        else:
                            dest[key] = value

                def change(node, changes):
                    dest = dot_lookup(destination, node, parent=True)
                    if isinstance(node, str):
                        last_node = node.split('.')[-1]
                    else:
                        last_node = node[-1]
                    if isinstance(dest, LIST_TYPES):
                        last_node = int(last_node)
                    _, value = changes
                    dest[last_node] = value

                def remove(node, changes):
                    for key, value in changes:
                        dest = dot_lookup(destination, node)
                        if isinstance(dest, SET_TYPES):
                            dest -= value
                        else:
                            del dest[key]

                patchers = {
                    REMOVE: remove,
                    ADD: add,
                    CHANGE: change
                }
                for action, node, changes in diff_result:
                    patchers[action](node, changes)

                return destination
            ''',
            Witness(
                "(lambda d: (patch([('add', '', [('b', 2)])], d, in_place=True), d)[1])({'a': 1})",
                "{'a': 1, 'b': 2}",
                "{'a': 1}",
            ),
        ),
    ),
    "revert": (
        draft(
            "option-ignored",
            "in_place not passed on: the caller's structure is never reverted in place",
            '''
            def revert(diff_result, destination, in_place=False):
                """Call swap function to revert patched dictionary object.

                Usage example:

                    >>> from dictdiffer import diff, revert
                    >>> first = {'a': 'b'}
                    >>> second = {'a': 'c'}
                    >>> revert(diff(first, second), second)
                    {'a': 'b'}

                :param diff_result: Changes returned by ``diff``.
                :param destination: Structure to apply the changes to.
                :param in_place: By default, destination dictionary is deep
                                 copied before being reverted, and the copy
                                 is returned. Setting ``in_place=True`` means
                                 that revert will apply the changes directly to
                                 and return the destination structure.
                """
                return patch(swap(diff_result), destination)
            ''',
            Witness(
                "(lambda d: (revert([('add', '', [('b', 2)])], d, in_place=True), d)[1])({'a': 1, 'b': 2})",
                "{'a': 1}",
                "{'a': 1, 'b': 2}",
            ),
        ),
    ),
}


# -- semver 3.1.2 ---------------------------------------------------------------------------
# src/semver/version.py imports operator, re, warnings, wraps and (from typing) Any, ClassVar, Dict,
# Iterable, Optional, Pattern, SupportsInt, SupportsIndex, Tuple, Union, cast, Callable, Collection,
# Type, TypeVar, and from ._types VersionTuple, VersionDict, VersionIterator, String, VersionPart;
# it defines Comparable, T, _comparator, _cmp and Version. The targets are Version's members; a
# draft is the member's def at the left margin with its decorators, as a model writes it.

_TAG = "type('TagVersion', (Version,), {})"

SEMVER: dict[str, tuple[Draft, ...]] = {
    "Version._nat_cmp": (
        draft(
            "text-vs-number",
            "a one-identifier fast path compares the two strings: numeric ones as text ('10' < '9')",
            """
            @classmethod
            def _nat_cmp(cls, a: Optional[str], b: Optional[str]) -> int:
                a, b = a or "", b or ""
                # one identifier each, the common case ("rc", "1"): compare them at once
                if "." not in a and "." not in b and a.isdigit() == b.isdigit():
                    return _cmp(a, b)

                def prerelease_key(identifier: str) -> tuple[int, int, str]:
                    if not identifier.isdigit():
                        return (1, 0, identifier)
                    if not identifier.isascii():
                        identifier = str(int(identifier))
                    normalized = identifier.lstrip("0") or "0"
                    return (0, len(normalized), normalized)

                a_parts = [prerelease_key(x) for x in a.split(".")]
                b_parts = [prerelease_key(x) for x in b.split(".")]
                for sub_a, sub_b in zip(a_parts, b_parts):
                    cmp_result = _cmp(sub_a, sub_b)
                    if cmp_result != 0:
                        return cmp_result
                return _cmp(len(a_parts), len(b_parts))
            """,
            Witness("Version._nat_cmp('10', '9')", "1", "-1"),
        ),
        draft(
            "text-vs-number",
            "numeric identifiers keyed by their length and text, leading zeros kept: '01' sorts after '1'",
            """
            @classmethod
            def _nat_cmp(cls, a: Optional[str], b: Optional[str]) -> int:
                # numbers by length then text: no int() of long identifiers
                def prerelease_key(identifier: str) -> tuple[int, int, str]:
                    if identifier.isdigit():
                        return (0, len(identifier), identifier)
                    return (1, 0, identifier)

                a_parts = [prerelease_key(x) for x in (a or "").split(".")]
                b_parts = [prerelease_key(x) for x in (b or "").split(".")]
                for sub_a, sub_b in zip(a_parts, b_parts):
                    if sub_a != sub_b:
                        return -1 if sub_a < sub_b else 1
                return _cmp(len(a_parts), len(b_parts))
            """,
            Witness("Version._nat_cmp('rc.01', 'rc.1')", "0", "1"),
        ),
    ),
    "Version._increment_prerelease": (
        draft(
            "text-vs-number",
            "the last run of digits raised wherever it is: an old-style 'rc9' becomes 'rc10', not 'rc9.0'",
            """
            @staticmethod
            def _increment_prerelease(string: str) -> str:
                # raise the trailing number, whatever precedes it
                digits = len(string) - len(string.rstrip("0123456789"))
                if digits:
                    return string[:-digits] + str(int(string[-digits:]) + 1)
                return string + ".0"
            """,
            Witness("Version._increment_prerelease('rc9')", "'rc9.0'", "'rc10'"),
        ),
    ),
    "Version._increment_string": (
        draft(
            "text-vs-number",
            "the last digit raised in place, a carry only past 9: the number's zero padding is lost on a carry",
            """
            @staticmethod
            def _increment_string(string: str) -> str:
                match = Version._LAST_NUMBER.search(string)
                if match:
                    start, end = match.span(1)
                    digits = match.group(1)
                    if digits[-1] != "9":  # no carry: one character changes
                        return string[: end - 1] + str(int(digits[-1]) + 1) + string[end:]
                    return string[:start] + str(int(digits) + 1) + string[end:]
                return string
            """,
            Witness("Version._increment_string('build.009')", "'build.010'", "'build.10'"),
        ),
    ),
    "Version.prerelease": (
        draft(
            "empty-vs-none",
            "an empty prerelease read as none",
            '''
            @property
            def prerelease(self) -> Optional[str]:
                """The prerelease part of a version (read-only)."""
                return self._prerelease or None
            ''',
            Witness("Version(1, 0, 0, '').prerelease", "''", "None"),
        ),
    ),
    "Version.major.setter": (
        draft(
            "self-state",
            "the setter stores the value: the version is no longer read-only",
            """
            @major.setter
            def major(self, value):
                self._major = int(value)
            """,
            Witness("(lambda v: (setattr(v, 'major', 5), v.major)[1])(Version(1, 2, 3))", "raises AttributeError", "5"),
        ),
    ),
    "Version.compare": (
        draft(
            "order-assumed",
            "one tuple comparison, a release after its prereleases: prereleases compared as plain text",
            """
            def compare(self, other: Comparable) -> int:
                cls = type(self)
                if isinstance(other, String.__args__):  # type: ignore
                    other = cls.parse(other)
                elif isinstance(other, dict):
                    other = cls(**other)
                elif isinstance(other, (tuple, list)):
                    other = cls(*other)
                elif not isinstance(other, cls):
                    raise TypeError(
                        f"Expected str, bytes, dict, tuple, list, or {cls.__name__} instance, "
                        f"but got {type(other)}"
                    )
                # a release sorts after its prereleases: (no prerelease) is True > False
                mine = (self.major, self.minor, self.patch, not self.prerelease, self.prerelease or "")
                theirs = (other.major, other.minor, other.patch, not other.prerelease, other.prerelease or "")
                return _cmp(mine, theirs)
            """,
            Witness("Version(1, 0, 0, 'rc.10').compare('1.0.0-rc.9')", "1", "-1"),
        ),
        draft(
            "empty-vs-none",
            "the prereleases tested with `is None`: an empty prerelease is ordered before the release",
            """
            def compare(self, other: Comparable) -> int:
                cls = type(self)
                if isinstance(other, String.__args__):  # type: ignore
                    other = cls.parse(other)
                elif isinstance(other, dict):
                    other = cls(**other)
                elif isinstance(other, (tuple, list)):
                    other = cls(*other)
                elif not isinstance(other, cls):
                    raise TypeError(
                        f"Expected str, bytes, dict, tuple, list, or {cls.__name__} instance, "
                        f"but got {type(other)}"
                    )
                x = _cmp((self._major, self._minor, self._patch), (other._major, other._minor, other._patch))
                if x:
                    return x
                rc1, rc2 = self._prerelease, other._prerelease
                if rc1 == rc2:
                    return 0
                if rc1 is None:
                    return 1
                if rc2 is None:
                    return -1
                return self._nat_cmp(rc1, rc2)
            """,
            Witness("Version(1, 0, 0, '').compare(Version(1, 0, 0))", "0", "-1"),
        ),
        draft(
            "mapping-as-iterable",
            "a dict taken by its values in order: keys given in another order mix the parts up",
            """
            def compare(self, other: Comparable) -> int:
                cls = type(self)
                if isinstance(other, String.__args__):  # type: ignore
                    other = cls.parse(other)
                elif isinstance(other, (dict, tuple, list)):
                    # a dict's values are the parts, as a tuple's items are
                    other = cls(*(other.values() if isinstance(other, dict) else other))
                elif not isinstance(other, cls):
                    raise TypeError(
                        f"Expected str, bytes, dict, tuple, list, or {cls.__name__} instance, "
                        f"but got {type(other)}"
                    )
                v1 = self.to_tuple()[:3]
                v2 = other.to_tuple()[:3]
                x = _cmp(v1, v2)
                if x:
                    return x
                rc1, rc2 = self.prerelease, other.prerelease
                if rc1 == rc2:
                    return 0
                if not rc1:
                    return 1 if rc2 else 0
                elif not rc2:
                    return -1
                return self._nat_cmp(rc1, rc2)
            """,
            Witness("Version(1, 2, 3).compare({'patch': 3, 'minor': 2, 'major': 1})", "0", "1"),
        ),
    ),
    "Version.match": (
        draft(
            "error-changed",
            "the operator split off with lstrip() and looked up: an unknown one is a KeyError, not a ValueError",
            """
            def match(self, match_expr: str) -> bool:
                version = match_expr.lstrip("<>=!")
                prefix = match_expr[: len(match_expr) - len(version)] or "=="
                possibilities = {
                    ">": (1,),
                    "<": (-1,),
                    "==": (0,),
                    "!=": (-1, 1),
                    ">=": (0, 1),
                    "<=": (-1, 0),
                }[prefix]
                return self.compare(version) in possibilities
            """,
            Witness("Version(1, 0, 0).match('=1.0.0')", "raises ValueError", "raises KeyError"),
        ),
    ),
    "Version.bump_prerelease": (
        draft(
            "error-changed",
            "the token's validation dropped (the caller's business): an invalid token makes an invalid version",
            """
            def bump_prerelease(
                self, token: Optional[str] = "rc", bump_when_empty: Optional[bool] = False
            ) -> "Version":
                cls = type(self)
                if self._prerelease is not None:
                    return cls(self._major, self._minor, self._patch, cls._increment_prerelease(self._prerelease))
                patch = self._patch + 1 if bump_when_empty else self._patch
                if token == "":
                    prerelease = "1"
                elif token is None:
                    prerelease = "rc.1"
                else:
                    prerelease = f"{token}.1"
                return cls(self._major, self._minor, patch, prerelease)
            """,
            Witness("str(Version(1, 0, 0).bump_prerelease('a b'))", "raises ValueError", "'1.0.0-a b.1'"),
        ),
        draft(
            "empty-vs-none",
            "the prerelease tested for truth: an empty one is replaced by a new token instead of raised",
            """
            def bump_prerelease(
                self, token: Optional[str] = "rc", bump_when_empty: Optional[bool] = False
            ) -> "Version":
                cls = type(self)
                patch = self._patch
                if self._prerelease:
                    prerelease = cls._increment_prerelease(self._prerelease)
                else:
                    if bump_when_empty:
                        patch += 1
                    if token == "":
                        prerelease = "1"
                    elif token is None:
                        prerelease = "rc.1"
                    else:
                        token = str(token)
                        cls._validate_identifiers(token, cls._PRERELEASE_IDENTIFIER, "prerelease token")
                        prerelease = token + ".1"
                return cls(self._major, self._minor, patch, prerelease)
            """,
            Witness("str(Version(1, 0, 0, '').bump_prerelease())", "'1.0.0-.0'", "'1.0.0-rc.1'"),
        ),
    ),
    "Version.bump_build": (
        draft(
            "text-vs-number",
            "the digitless build's '.0' dropped: _increment_string is trusted to always raise it",
            """
            def bump_build(self, token: Optional[str] = "build") -> "Version":
                cls = type(self)
                if self._build is not None:
                    build = self._build
                elif token == "":
                    build = "0"
                elif token is None:
                    build = "build.0"
                else:
                    token = str(token)
                    cls._validate_identifiers(token, cls._BUILD_IDENTIFIER, "build token")
                    build = token + ".0"
                return cls(self._major, self._minor, self._patch, self._prerelease, cls._increment_string(build))
            """,
            Witness("str(Version(1, 0, 0, None, 'alpha').bump_build())", "'1.0.0+alpha.0'", "'1.0.0+alpha'"),
        ),
    ),
    "Version.next_version": (
        draft(
            "order-assumed",
            "a prerelease that starts with the token taken as the token's: 'rcx.1' raised to 'rcx.2'",
            """
            def next_version(self, part: str, prerelease_token: str = "rc") -> "Version":
                cls = type(self)
                validparts = cls.NAMES[:-1]
                if part not in validparts:
                    raise ValueError(f"Invalid part. Expected one of {validparts}, but got {part!r}")
                version = self
                if version.prerelease and (
                    part == "patch"
                    or (part == "minor" and version.patch == 0)
                    or (part == "major" and version.minor == version.patch == 0)
                ):
                    return version.replace(prerelease=None, build=None)
                if part in cls.NAMES[:3]:
                    return getattr(version, "bump_" + part)()
                if version.prerelease and prerelease_token:
                    prerelease_token = str(prerelease_token)
                    cls._validate_identifiers(prerelease_token, cls._PRERELEASE_IDENTIFIER, "prerelease token")
                    match = re.fullmatch(rf"{re.escape(prerelease_token)}(\\d+)", version.prerelease)
                    if match:
                        raised = f"{prerelease_token}{int(match.group(1)) + 1}"
                        candidate = version.replace(prerelease=raised, build=None)
                        if candidate > version:
                            return candidate
                        return candidate.bump_patch().replace(prerelease=candidate.prerelease)
                    # the same token already in use: just raise its counter
                    if not version.prerelease.startswith(prerelease_token):
                        candidate = version.replace(prerelease=f"{prerelease_token}.1", build=None)
                        if candidate > version:
                            return candidate
                        return version.bump_patch().bump_prerelease(prerelease_token)
                return version.bump_prerelease(prerelease_token, bump_when_empty=True)
            """,
            Witness("str(Version.parse('1.2.3-rcx.1').next_version('prerelease'))", "'1.2.4-rc.1'", "'1.2.3-rcx.2'"),
        ),
    ),
    "Version.finalize_version": (
        draft(
            "kind-lost",
            "the result built as a Version: a subclass's instance comes back as the base class",
            '''
            def finalize_version(self) -> "Version":
                """Remove any prerelease and build metadata from the version."""
                return Version(self._major, self._minor, self._patch)
            ''',
            Witness(f"type({_TAG}(1, 0, 0, 'rc.1').finalize_version()).__name__", "'TagVersion'", "'Version'"),
        ),
    ),
    "Version.parse": (
        draft(
            "lenient-parse",
            "a fast path for a plain X.Y.Z split on dots: leading zeros and non-ASCII digits accepted",
            """
            @classmethod
            def parse(cls: Type[T], version: String, optional_minor_and_patch: bool = False) -> T:
                if isinstance(version, bytes):
                    version = version.decode("UTF-8")
                elif not isinstance(version, String.__args__):  # type: ignore
                    raise TypeError("not expecting type '%s'" % type(version))
                # the common case, three numbers and nothing else: no regex
                parts = version.split(".")
                if len(parts) == 3 and all(part.isdigit() for part in parts):
                    return cls(*map(int, parts))
                if optional_minor_and_patch:
                    match = cls._REGEX_OPTIONAL_MINOR_AND_PATCH.match(version)
                else:
                    match = cls._REGEX.match(version)
                if match is None:
                    raise ValueError(f"{version} is not valid SemVer string")
                matched_version_parts: Dict[str, Any] = match.groupdict()
                if not matched_version_parts["minor"]:
                    matched_version_parts["minor"] = 0
                if not matched_version_parts["patch"]:
                    matched_version_parts["patch"] = 0
                return cls(**matched_version_parts)
            """,
            Witness("Version.parse('01.2.3')", "raises ValueError", "Version(1, 2, 3)"),
        ),
        draft(
            "lenient-parse",
            "the text stripped and a leading v dropped first, to be forgiving",
            """
            @classmethod
            def parse(cls: Type[T], version: String, optional_minor_and_patch: bool = False) -> T:
                if isinstance(version, bytes):
                    version = version.decode("UTF-8")
                elif not isinstance(version, String.__args__):  # type: ignore
                    raise TypeError("not expecting type '%s'" % type(version))
                version = version.strip()
                if version[:1] in ("v", "V"):
                    version = version[1:]
                regex = cls._REGEX_OPTIONAL_MINOR_AND_PATCH if optional_minor_and_patch else cls._REGEX
                match = regex.match(version)
                if match is None:
                    raise ValueError(f"{version} is not valid SemVer string")
                parts: Dict[str, Any] = match.groupdict()
                parts["minor"] = parts["minor"] or 0
                parts["patch"] = parts["patch"] or 0
                return cls(**parts)
            """,
            Witness("Version.parse('v1.2.3')", "raises ValueError", "Version(1, 2, 3)"),
        ),
    ),
    "Version.__getitem__": (
        draft(
            "index-edge",
            "an int index read straight from the tuple: a negative one is no longer refused",
            """
            def __getitem__(self, index):
                if not isinstance(index, slice):  # one part: no slice, no filter
                    part = self.to_tuple()[operator.index(index)]
                    if part is None:
                        raise IndexError("Version part undefined")
                    return part
                start = None if index.start is None else operator.index(index.start)
                stop = None if index.stop is None else operator.index(index.stop)
                if (start is not None and start < 0) or (stop is not None and stop < 0):
                    raise IndexError("Version index cannot be negative")
                part = tuple(p for p in self.to_tuple()[index] if p is not None)
                if len(part) == 1:
                    return part[0]
                elif not part:
                    raise IndexError("Version part undefined")
                return part
            """,
            Witness("Version(1, 2, 3, 'rc.1', 'b.1')[-1]", "raises IndexError", "'b.1'"),
        ),
        draft(
            "index-edge",
            "the slice's bounds left to the tuple: a negative stop slices from the end instead of raising",
            """
            def __getitem__(self, index):
                if not isinstance(index, slice):
                    start = operator.index(index)
                    if start < 0:
                        raise IndexError("Version index cannot be negative")
                    index = slice(start, start + 1)
                part = tuple(p for p in self.to_tuple()[index] if p is not None)
                if len(part) == 1:
                    return part[0]
                elif not part:
                    raise IndexError("Version part undefined")
                return part
            """,
            Witness("Version(1, 2, 3)[0:-3]", "raises IndexError", "(1, 2)"),
        ),
    ),
    "Version.__hash__": (
        draft(
            "part-dropped",
            "the whole tuple hashed: the build, which __eq__ ignores, changes the hash",
            """
            def __hash__(self) -> int:
                return hash(self.to_tuple())
            """,
            Witness("hash(Version(1, 0, 0, None, 'b.1')) == hash(Version(1, 0, 0))", "True", "False"),
        ),
        draft(
            "part-dropped",
            "only the numeric parts hashed (the prerelease is rare): another hash than the original's",
            """
            def __hash__(self) -> int:
                return hash((self._major, self._minor, self._patch))
            """,
            Witness("hash(Version(1, 0, 0, 'rc.1')) == hash((1, 0, 0, 'rc.1'))", "True", "False"),
        ),
    ),
    # The comparison operators are behind semver's own @_comparator (a type check, functools.wraps):
    # a draft keeps the decorator, as the original's def has it.
    "Version.__eq__": (
        draft(
            "part-dropped",
            "a fast path for two Versions compares their tuples: the build, which compare ignores, counts",
            """
            @_comparator
            def __eq__(self, other: Comparable) -> bool:  # type: ignore
                if isinstance(other, Version):
                    return self.to_tuple() == other.to_tuple()
                return self.compare(other) == 0
            """,
            Witness("Version(1, 0, 0, None, 'a') == Version(1, 0, 0, None, 'b')", "True", "False"),
        ),
        draft(
            "lenient-parse",
            "a string compared to str(self) before parsing: leading zeros and spaces the parse refuses pass",
            """
            @_comparator
            def __eq__(self, other: Comparable) -> bool:  # type: ignore
                if isinstance(other, str) and other.strip().lstrip("v") == str(self):
                    return True
                return self.compare(other) == 0
            """,
            Witness("Version(1, 2, 3) == ' 1.2.3'", "raises ValueError", "True"),
        ),
    ),
    "Version.__lt__": (
        draft(
            "part-dropped",
            "the numeric parts compared as a tuple when other is a release: self's prerelease is missed",
            """
            @_comparator
            def __lt__(self, other: Comparable) -> bool:
                if isinstance(other, Version) and other.prerelease is None:
                    return (self._major, self._minor, self._patch) < (other.major, other.minor, other.patch)
                return self.compare(other) < 0
            """,
            Witness("Version(1, 0, 0, 'rc.1') < Version(1, 0, 0)", "True", "False"),
        ),
        draft(
            "text-vs-number",
            "versions compared by their text: '1.10.0' sorts before '1.9.0'",
            """
            @_comparator
            def __lt__(self, other: Comparable) -> bool:
                if isinstance(other, Version):
                    return str(self) < str(other)
                return self.compare(other) < 0
            """,
            Witness("Version(1, 10, 0) < Version(1, 9, 0)", "False", "True"),
        ),
    ),
    "Version.__ge__": (
        draft(
            "part-dropped",
            "the build compared too, as a tiebreak: equal versions with other builds are no longer >=",
            """
            @_comparator
            def __ge__(self, other: Comparable) -> bool:
                if isinstance(other, Version) and self.compare(other) == 0:
                    return (self._build or "") >= (other.build or "")
                return self.compare(other) >= 0
            """,
            Witness("Version(1, 0, 0, None, 'a') >= Version(1, 0, 0, None, 'b')", "True", "False"),
        ),
        draft(
            "text-vs-number",
            "two releases compared by their text: '1.9.0' is taken as newer than '1.10.0'",
            """
            @_comparator
            def __ge__(self, other: Comparable) -> bool:
                if isinstance(other, Version) and self._prerelease is None and other.prerelease is None:
                    return str(self).partition("+")[0] >= str(other).partition("+")[0]
                return self.compare(other) >= 0
            """,
            Witness("Version(1, 9, 0) >= Version(1, 10, 0)", "False", "True"),
        ),
    ),
    "Version.__str__": (
        draft(
            "empty-vs-none",
            "an f-string, the parts tested against None: an empty prerelease or build leaves its separator",
            """
            def __str__(self) -> str:
                pre = "" if self._prerelease is None else f"-{self._prerelease}"
                build = "" if self._build is None else f"+{self._build}"
                return f"{self._major}.{self._minor}.{self._patch}{pre}{build}"
            """,
            Witness("str(Version(1, 0, 0, '', ''))", "'1.0.0'", "'1.0.0-+'"),
        ),
    ),
    "Version.__repr__": (
        draft(
            "kind-lost",
            "the class's name written out: a subclass is shown as Version",
            """
            def __repr__(self) -> str:
                return (
                    f"Version(major={self._major!r}, minor={self._minor!r}, patch={self._patch!r}, "
                    f"prerelease={self._prerelease!r}, build={self._build!r})"
                )
            """,
            Witness(
                f"repr({_TAG}(1))",
                "'TagVersion(major=1, minor=0, patch=0, prerelease=None, build=None)'",
                "'Version(major=1, minor=0, patch=0, prerelease=None, build=None)'",
            ),
        ),
    ),
}


# -- isodate 0.7.2 --------------------------------------------------------------------------
# src/isodate/duration.py imports timedelta and (from decimal) ROUND_FLOOR, Decimal; it defines
# fquotmod, max_days_in_month and Duration (years, months and a timedelta `tdelta`). The library
# passes Decimals to its helpers; a method's draft is its def at the left margin.

ISODATE: dict[str, tuple[Draft, ...]] = {
    "max_days_in_month": (
        draft(
            "kind-assumed",
            "the standard library's calendar: a Decimal year or a month out of 1..12 is refused",
            """
            def max_days_in_month(year, month):
                import calendar

                return calendar.monthrange(year, month)[1]
            """,
            Witness("max_days_in_month(2001, 13)", "28", "raises IllegalMonthError"),
        ),
        draft(
            "size-fast-path",
            "a leap year as every fourth year: the centuries that are not leap years are missed",
            """
            def max_days_in_month(year, month):
                if month in (1, 3, 5, 7, 8, 10, 12):
                    return 31
                if month in (4, 6, 9, 11):
                    return 30
                return 29 if year % 4 == 0 else 28
            """,
            Witness("max_days_in_month(1900, 2)", "28", "29"),
        ),
    ),
    "fquotmod": (
        draft(
            "text-vs-number",
            "divmod on the Decimals: Decimal's divmod truncates toward zero where the original floors",
            """
            def fquotmod(val, low, high):
                div, mod = divmod(val - low, high - low)
                return int(div), mod + low
            """,
            Witness("fquotmod(Decimal(-1), 1, 13)", "(-1, Decimal('11'))", "(0, Decimal('-1'))"),
        ),
        draft(
            "error-changed",
            "the quotient by floor division of the difference: a Decimal floor-divides toward zero",
            """
            def fquotmod(val, low, high):
                span = high - low
                div = (val - low) // span
                return int(div), val - div * span
            """,
            Witness("fquotmod(Decimal('-0.5'), 0, 12)", "(-1, Decimal('11.5'))", "(0, Decimal('-0.5'))"),
        ),
    ),
    "Duration.__neg__": (
        draft(
            "part-dropped",
            "the negation rebuilt from the days alone: the seconds of the timedelta are lost",
            """
            def __neg__(self):
                return Duration(-self.tdelta.days, years=-self.years, months=-self.months)
            """,
            Witness("-Duration(seconds=5)", "Duration(seconds=-5)", "Duration(0)"),
        ),
    ),
    "Duration.__eq__": (
        draft(
            "part-dropped",
            "two Durations compared part by part: a year is no longer twelve months",
            """
            def __eq__(self, other):
                if isinstance(other, Duration):
                    mine, theirs = (self.years, self.months, self.tdelta), (other.years, other.months, other.tdelta)
                    return mine == theirs
                if self.years == 0 and self.months == 0:
                    return self.tdelta == other
                return False
            """,
            Witness("Duration(years=1) == Duration(months=12)", "True", "False"),
        ),
        draft(
            "kind-assumed",
            "other taken for a Duration or a timedelta: anything else raises instead of comparing unequal",
            """
            def __eq__(self, other):
                if isinstance(other, Duration):
                    months = self.years * 12 + self.months == other.years * 12 + other.months
                    return months and self.tdelta == other.tdelta
                other = timedelta(other.days, other.seconds, other.microseconds)
                return self.years == 0 and self.months == 0 and self.tdelta == other
            """,
            Witness("Duration(days=1) == 0", "False", "raises AttributeError"),
        ),
    ),
    "Duration.__hash__": (
        draft(
            "part-dropped",
            "the months counted once, as __eq__ counts them: another hash than the original's",
            """
            def __hash__(self):
                return hash((self.tdelta, self.years * 12 + self.months))
            """,
            Witness("hash(Duration(years=1)) == hash((timedelta(0), 0, 1))", "True", "False"),
        ),
    ),
    "Duration.__str__": (
        draft(
            "empty-vs-none",
            "'month' for exactly one month only: a negative count of months is written in the plural",
            """
            def __str__(self):
                params = []
                if self.years:
                    params.append("%d years" % self.years)
                if self.months:
                    params.append(("%d month" if self.months == 1 else "%d months") % self.months)
                params.append(str(self.tdelta))
                return ", ".join(params)
            """,
            Witness("str(Duration(months=-3))", "'-3 month, 0:00:00'", "'-3 months, 0:00:00'"),
        ),
    ),
}


# -- parse 1.20.2 ---------------------------------------------------------------------------
# parse.py imports logging, re, sys, datetime, time, timedelta, tzinfo, Decimal and partial; it
# defines int_convert, convert_first, percentage, FixedTzOffset, date_convert, extract_format,
# REGEX_SAFETY, Parser, Result, Match and (shadowing the builtin) compile. A method's draft is its
# def at the left margin. Its converters get the text a field matched and the re.Match of the
# parser's own expression; the parser's own patterns never let some texts through (" 0x1f" does
# reach int_convert, and comes out as 1).

_LOCAL_OFFSET = "type('LocalOffset', (FixedTzOffset,), {})"

PARSE: dict[str, tuple[Draft, ...]] = {
    "int_convert.__call__": (
        draft(
            "lenient-parse",
            "the text stripped first: ' 0x1f' (which {:d} lets through) is read as hex, not as the digits 0 and 1",
            """
            def __call__(self, string, match):
                string = string.strip()
                sign = -1 if string[0] == "-" else 1
                if string[0] in "+-":
                    string = string[1:]
                base = self.base
                if base is None:
                    base = 10
                    if string[0] == "0" and len(string) > 2:
                        base = {"b": 2, "o": 8, "x": 16}.get(string[1].lower(), 10)
                chars = int_convert.CHARS[:base]
                return sign * int(re.sub("[^%s]" % chars, "", string.lower()), base)
            """,
            Witness("int_convert()(' 0x1f', None)", "1", "31"),
        ),
        draft(
            "strict-parse",
            "int(string, 0) when no base is given: it reads sign and prefix itself, but refuses leading zeros",
            """
            def __call__(self, string, match):
                if self.base is None:
                    # int() reads the sign and the 0b/0o/0x prefixes itself
                    return int(string, 0)
                sign = -1 if string[0] == "-" else 1
                chars = int_convert.CHARS[: self.base]
                return sign * int(re.sub("[^%s]" % chars, "", string.lower()), self.base)
            """,
            Witness("int_convert()('007', None)", "7", "raises ValueError"),
        ),
        draft(
            "strict-parse",
            "int() of the whole text in the base: grouping marks ('1,234' of {:n}) are no longer dropped",
            """
            def __call__(self, string, match):
                base = self.base or 10
                digits = string.lstrip("+-")
                if self.base is None and digits[:2].lower() in ("0b", "0o", "0x"):
                    base = {"b": 2, "o": 8, "x": 16}[digits[1].lower()]
                return int(string, base)
            """,
            Witness("int_convert(10)('1,234', None)", "1234", "raises ValueError"),
        ),
        draft(
            "self-state",
            "the base detected once and kept on the converter: after '0x1f' a plain '10' is read as hex",
            """
            def __call__(self, string, match):
                sign = -1 if string[0] == "-" else 1
                number_start = 1 if string[0] in "+-" else 0
                if self.base is None:
                    # detected on the first call, kept for the next ones
                    self.base = 10
                    if string[number_start] == "0" and len(string) - number_start > 2:
                        self.base = {"b": 2, "o": 8, "x": 16}.get(string[number_start + 1].lower(), 10)
                chars = int_convert.CHARS[: self.base]
                return sign * int(re.sub("[^%s]" % chars, "", string.lower()), self.base)
            """,
            Witness("(lambda c: (c('0x1f', None), c('10', None)))(int_convert())", "(31, 10)", "(31, 16)"),
        ),
        draft(
            "lenient-parse",
            "a fast path for plain digits: int() takes other scripts' digits, and digits outside the base raise",
            """
            def __call__(self, string, match):
                if string.isdigit():  # the common case: no sign, no prefix, nothing to drop
                    return int(string, self.base or 10)
                if string[0] == "-":
                    sign, number_start = -1, 1
                elif string[0] == "+":
                    sign, number_start = 1, 1
                else:
                    sign, number_start = 1, 0
                base = self.base
                if base is None:
                    base = 10
                    if string[number_start] == "0" and len(string) - number_start > 2:
                        base = {"b": 2, "o": 8, "x": 16}.get(string[number_start + 1].lower(), 10)
                chars = int_convert.CHARS[:base]
                return sign * int(re.sub("[^%s]" % chars, "", string.lower()), base)
            """,
            Witness("int_convert()('\\u0663', None)", "raises ValueError", "3"),
        ),
    ),
    "percentage": (
        draft(
            "lenient-parse",
            "str.rstrip('%') for the slice: a text without its % is read whole, and '5%%' is accepted",
            """
            def percentage(string, match):
                return float(string.rstrip("%")) / 100.0
            """,
            Witness("percentage('50', None)", "0.05", "0.5"),
        ),
        draft(
            "float-rounding",
            "a multiplication by 0.01 for the division: the last bit of the float differs",
            """
            def percentage(string, match):
                return float(string[:-1]) * 0.01
            """,
            Witness("percentage('35%', None)", "0.35", "0.35000000000000003"),
        ),
        draft(
            "strict-parse",
            "int() of the number: a fraction ('12.5%', which {:%} matches) is refused",
            """
            def percentage(string, match):
                return int(string[:-1]) / 100
            """,
            Witness("percentage('12.5%', None)", "0.125", "raises ValueError"),
        ),
        draft(
            "lenient-parse",
            "the % checked for: a text without one is read whole instead of losing its last character",
            """
            def percentage(string, match):
                if string.endswith("%"):
                    return float(string[:-1]) / 100.0
                return float(string) / 100.0
            """,
            Witness("percentage('55', None)", "0.05", "0.55"),
        ),
    ),
    "FixedTzOffset.__eq__": (
        draft(
            "part-dropped",
            "the reprs compared: the class's name counts, so a subclass with the same offset and name differs",
            """
            def __eq__(self, other):
                return repr(self) == repr(other)
            """,
            Witness(f"FixedTzOffset(60, 'x').__eq__({_LOCAL_OFFSET}(60, 'x'))", "True", "False"),
        ),
        draft(
            "not-implemented",
            "the isinstance test dropped: another kind of value raises AttributeError instead of NotImplemented",
            """
            def __eq__(self, other):
                return self._name == other._name and self._offset == other._offset
            """,
            Witness("FixedTzOffset(0, 'UTC') == None", "False", "raises AttributeError"),
        ),
        draft(
            "not-implemented",
            "False for another kind of value: the other operand's own __eq__ is never asked",
            """
            def __eq__(self, other):
                return isinstance(other, FixedTzOffset) and (self._name, self._offset) == (other._name, other._offset)
            """,
            Witness("FixedTzOffset(0, 'UTC').__eq__(0)", "NotImplemented", "False"),
        ),
        draft(
            "part-dropped",
            "the offsets alone compared: two zones of one offset and other names are equal",
            """
            def __eq__(self, other):
                if not isinstance(other, FixedTzOffset):
                    return NotImplemented
                return self._offset == other._offset
            """,
            Witness("FixedTzOffset(0, 'UTC') == FixedTzOffset(0, 'Z')", "False", "True"),
        ),
        draft(
            "kind-assumed",
            "type(other) is type(self) for the isinstance test: a subclass's instance gets NotImplemented",
            """
            def __eq__(self, other):
                if type(other) is not type(self):
                    return NotImplemented
                return self._name == other._name and self._offset == other._offset
            """,
            Witness(f"FixedTzOffset(60, 'x').__eq__({_LOCAL_OFFSET}(60, 'x'))", "True", "NotImplemented"),
        ),
    ),
    "FixedTzOffset.utcoffset": (
        draft(
            "empty-vs-none",
            "None for dt None, as a zone that needs the date answers: this zone's offset never depends on it",
            """
            def utcoffset(self, dt):
                if dt is None:
                    return None
                return self._offset
            """,
            Witness("FixedTzOffset(60, 'x').utcoffset(None)", "timedelta(minutes=60)", "None"),
        ),
        draft(
            "part-dropped",
            "the offset rebuilt from whole minutes, as the constructor takes them: a fraction of a minute is lost",
            """
            def utcoffset(self, dt):
                return timedelta(minutes=int(self._offset.total_seconds()) // 60)
            """,
            Witness("FixedTzOffset(1.5, 'x').utcoffset(None)", "timedelta(seconds=90)", "timedelta(seconds=60)"),
        ),
        draft(
            "part-dropped",
            "the minutes read from the timedelta's seconds: a negative offset loses its day of -1",
            """
            def utcoffset(self, dt):
                return timedelta(minutes=self._offset.seconds // 60)
            """,
            Witness("FixedTzOffset(-60, 'x').utcoffset(None)", "timedelta(minutes=-60)", "timedelta(minutes=1380)"),
        ),
        draft(
            "self-state",
            "the offset cached on the instance on the first call: the zone gains an attribute",
            """
            def utcoffset(self, dt):
                try:
                    return self._utcoffset
                except AttributeError:
                    self._utcoffset = self._offset
                    return self._offset
            """,
            Witness(
                "(lambda z: (z.utcoffset(None), sorted(vars(z))))(FixedTzOffset(60, 'x'))",
                "(timedelta(minutes=60), ['_name', '_offset'])",
                "(timedelta(minutes=60), ['_name', '_offset', '_utcoffset'])",
            ),
        ),
    ),
    "FixedTzOffset.__repr__": (
        draft(
            "kind-lost",
            "the class's name written out: a subclass is shown as FixedTzOffset",
            """
            def __repr__(self):
                return f"<FixedTzOffset {self._name} {self._offset}>"
            """,
            Witness(f"repr({_LOCAL_OFFSET}(60, 'x'))", "'<LocalOffset x 1:00:00>'", "'<FixedTzOffset x 1:00:00>'"),
        ),
        draft(
            "part-dropped",
            "an f-string with the name's repr: the name is shown in quotes",
            """
            def __repr__(self):
                return f"<{type(self).__name__} {self._name!r} {self._offset}>"
            """,
            Witness(
                "repr(FixedTzOffset(0, 'UTC'))", "'<FixedTzOffset UTC 0:00:00>'", "\"<FixedTzOffset 'UTC' 0:00:00>\""
            ),
        ),
        draft(
            "kind-assumed",
            "the parts joined with str.join: a name that is not a str raises TypeError",
            """
            def __repr__(self):
                return " ".join(("<" + self.__class__.__name__, self._name, str(self._offset) + ">"))
            """,
            Witness("repr(FixedTzOffset(0, None))", "'<FixedTzOffset None 0:00:00>'", "raises TypeError"),
        ),
    ),
    "Parser.evaluate_result": (
        draft(
            "order-assumed",
            "a fixed field's span taken by its position: a field after one with inner groups ({:n}) gets another span",
            """
            def evaluate_result(self, m):
                groups = m.groups()
                conversions = self._type_conversions
                fixed_fields = tuple(
                    conversions[n](groups[n], m) if n in conversions else groups[n] for n in self._fixed_fields
                )
                groupdict = m.groupdict()
                named_fields = {}
                name_map = {}
                for k in self._named_fields:
                    korig = self._group_to_name_map[k]
                    name_map[korig] = k
                    named_fields[korig] = conversions[k](groupdict[k], m) if k in conversions else groupdict[k]
                spans = {n: m.span(name_map[n]) for n in named_fields}
                spans.update((i, m.span(i + 1)) for i in range(len(self._fixed_fields)))
                return Result(fixed_fields, self._expand_named_fields(named_fields), spans)
            """,
            Witness(
                "(lambda p: p.evaluate_result(p._match_re.match('1,234 5')).spans)(Parser('{:n} {:d}'))",
                "{0: (0, 5), 1: (6, 7)}",
                "{0: (0, 5), 1: (1, 5)}",
            ),
        ),
        draft(
            "kind-assumed",
            "the span of a named field looked up by its name: a dotted or indexed name is no group name",
            """
            def evaluate_result(self, m):
                fixed_fields = list(m.groups())
                for n in self._fixed_fields:
                    if n in self._type_conversions:
                        fixed_fields[n] = self._type_conversions[n](fixed_fields[n], m)
                fixed_fields = tuple(fixed_fields[n] for n in self._fixed_fields)
                groupdict = m.groupdict()
                named_fields = {}
                for k in self._named_fields:
                    value = groupdict[k]
                    if k in self._type_conversions:
                        value = self._type_conversions[k](value, m)
                    named_fields[self._group_to_name_map[k]] = value
                spans = {n: m.span(n) for n in named_fields}
                spans.update((i, m.span(n + 1)) for i, n in enumerate(self._fixed_fields))
                return Result(fixed_fields, self._expand_named_fields(named_fields), spans)
            """,
            Witness(
                "(lambda p: p.evaluate_result(p._match_re.match('x'))['a'])(Parser('{a.b}'))",
                "raises KeyError",
                "raises IndexError",
            ),
        ),
        draft(
            "kind-assumed",
            "the converters given the text alone (None for the match): the date converters read the match's groups",
            """
            def evaluate_result(self, m):
                conversions = self._type_conversions
                groups = m.groups()
                fixed_fields = tuple(
                    conversions[n](groups[n], None) if n in conversions else groups[n] for n in self._fixed_fields
                )
                groupdict = m.groupdict()
                named_fields = {}
                name_map = {}
                for k in self._named_fields:
                    korig = self._group_to_name_map[k]
                    name_map[korig] = k
                    named_fields[korig] = conversions[k](groupdict[k], None) if k in conversions else groupdict[k]
                spans = {n: m.span(name_map[n]) for n in named_fields}
                spans.update((i, m.span(n + 1)) for i, n in enumerate(self._fixed_fields))
                return Result(fixed_fields, self._expand_named_fields(named_fields), spans)
            """,
            Witness(
                "(lambda p: p.evaluate_result(p._match_re.match('10:30'))[0])(Parser('{:tt}'))",
                "time(10, 30)",
                "raises AttributeError",
            ),
        ),
        draft(
            "self-state",
            "the map from field names to group names cached on the parser: the parser gains an attribute",
            """
            def evaluate_result(self, m):
                name_map = self.__dict__.get("_name_map")
                if name_map is None:
                    name_map = self._name_map = {self._group_to_name_map[k]: k for k in self._named_fields}
                conversions = self._type_conversions
                groups = m.groups()
                fixed_fields = tuple(
                    conversions[n](groups[n], m) if n in conversions else groups[n] for n in self._fixed_fields
                )
                groupdict = m.groupdict()
                named_fields = {}
                for korig, k in name_map.items():
                    named_fields[korig] = conversions[k](groupdict[k], m) if k in conversions else groupdict[k]
                spans = {n: m.span(name_map[n]) for n in named_fields}
                spans.update((i, m.span(n + 1)) for i, n in enumerate(self._fixed_fields))
                return Result(fixed_fields, self._expand_named_fields(named_fields), spans)
            """,
            Witness(
                "(lambda p: (p.evaluate_result(p._match_re.match('1')), hasattr(p, '_name_map'))[1])(Parser('{a}'))",
                "False",
                "True",
            ),
        ),
    ),
    "Parser._regex_replace": (
        draft(
            "kind-assumed",
            "the whole match for its first group: the same for REGEX_SAFETY's, not for a match of another pattern",
            """
            def _regex_replace(self, match):
                return "\\\\" + match.group(0)
            """,
            Witness("Parser('{}')._regex_replace(re.search('(a)b', 'ab'))", "'\\\\a'", "'\\\\ab'"),
        ),
        draft(
            "part-dropped",
            "re.escape for the backslash: characters it leaves alone (!) lose their escape",
            """
            def _regex_replace(self, match):
                return re.escape(match.group(1))
            """,
            Witness("Parser('{}')._regex_replace(REGEX_SAFETY.search('!'))", "'\\\\!'", "'!'"),
        ),
    ),
    "extract_format": (
        draft(
            "error-changed",
            "the alignment tested on format[:1]: an empty spec is taken as an alignment instead of raising",
            '''
            def extract_format(format, extra_types):
                """Pull apart the format [[fill]align][sign][0][width][.precision][type]"""
                fill = align = None
                if format[:1] in "<>=^":
                    align = format[:1]
                    format = format[1:]
                elif format[1:2] and format[1] in "<>=^":
                    fill = format[0]
                    align = format[1]
                    format = format[2:]
                if format.startswith(("+", "-", " ")):
                    format = format[1:]
                zero = False
                if format and format[0] == "0":
                    zero = True
                    format = format[1:]
                width = ""
                while format and format[0].isdigit():
                    width += format[0]
                    format = format[1:]
                if format.startswith("."):
                    format = format[1:]
                    precision = ""
                    while format and format[0].isdigit():
                        precision += format[0]
                        format = format[1:]
                type = format
                if (
                    type
                    and type not in ALLOWED_TYPES
                    and type not in extra_types
                    and not any(k in type for k in dt_format_to_regex)
                ):
                    raise ValueError("format spec %r not recognised" % type)
                return locals()
            ''',
            Witness("extract_format('', {})['align']", "raises IndexError", "''"),
        ),
        draft(
            "lenient-parse",
            "the sign stripped with lstrip: several signs ('+-5d') are taken where the original refuses the spec",
            '''
            def extract_format(format, extra_types):
                """Pull apart the format [[fill]align][sign][0][width][.precision][type]"""
                fill = align = None
                if format[0] in "<>=^":
                    align = format[0]
                    format = format[1:]
                elif len(format) > 1 and format[1] in "<>=^":
                    fill = format[0]
                    align = format[1]
                    format = format[2:]
                format = format.lstrip("+- ")
                zero = False
                if format and format[0] == "0":
                    zero = True
                    format = format[1:]
                width = ""
                while format and format[0].isdigit():
                    width += format[0]
                    format = format[1:]
                if format.startswith("."):
                    format = format[1:]
                    precision = ""
                    while format and format[0].isdigit():
                        precision += format[0]
                        format = format[1:]
                type = format
                if (
                    type
                    and type not in ALLOWED_TYPES
                    and type not in extra_types
                    and not any(k in type for k in dt_format_to_regex)
                ):
                    raise ValueError("format spec %r not recognised" % type)
                return locals()
            ''',
            Witness("extract_format('+-5d', {})['width']", "raises ValueError", "'5'"),
        ),
        draft(
            "strict-parse",
            "width and precision cut by lstrip of the ASCII digits: other scripts' digits are left in the type",
            '''
            def extract_format(format, extra_types):
                """Pull apart the format [[fill]align][sign][0][width][.precision][type]"""
                fill = align = None
                if format[0] in "<>=^":
                    align = format[0]
                    format = format[1:]
                elif len(format) > 1 and format[1] in "<>=^":
                    fill = format[0]
                    align = format[1]
                    format = format[2:]
                if format.startswith(("+", "-", " ")):
                    format = format[1:]
                zero = False
                if format and format[0] == "0":
                    zero = True
                    format = format[1:]
                width = format[: len(format) - len(format.lstrip("0123456789"))]
                format = format[len(width) :]
                if format.startswith("."):
                    format = format[1:]
                    precision = format[: len(format) - len(format.lstrip("0123456789"))]
                    format = format[len(precision) :]
                type = format
                if (
                    type
                    and type not in ALLOWED_TYPES
                    and type not in extra_types
                    and not any(k in type for k in dt_format_to_regex)
                ):
                    raise ValueError("format spec %r not recognised" % type)
                return locals()
            ''',
            Witness("extract_format('\\u00b2d', {})['width']", "'\\u00b2'", "raises ValueError"),
        ),
        draft(
            "lenient-parse",
            "a % anywhere taken for a strftime code, not scanning the table: an unknown code ('%Q') is accepted",
            '''
            def extract_format(format, extra_types):
                """Pull apart the format [[fill]align][sign][0][width][.precision][type]"""
                fill = align = None
                if format[0] in "<>=^":
                    align = format[0]
                    format = format[1:]
                elif len(format) > 1 and format[1] in "<>=^":
                    fill = format[0]
                    align = format[1]
                    format = format[2:]
                if format.startswith(("+", "-", " ")):
                    format = format[1:]
                zero = False
                if format and format[0] == "0":
                    zero = True
                    format = format[1:]
                width = ""
                while format and format[0].isdigit():
                    width += format[0]
                    format = format[1:]
                if format.startswith("."):
                    format = format[1:]
                    precision = ""
                    while format and format[0].isdigit():
                        precision += format[0]
                        format = format[1:]
                type = format
                if type and type not in ALLOWED_TYPES and type not in extra_types and "%" not in type:
                    raise ValueError("format spec %r not recognised" % type)
                return locals()
            ''',
            Witness("extract_format('%Q', {})['type']", "raises ValueError", "'%Q'"),
        ),
        draft(
            "part-dropped",
            "a dict of the parts for locals(): the rest of the spec and extra_types are left out, precision always in",
            '''
            def extract_format(format, extra_types):
                """Pull apart the format [[fill]align][sign][0][width][.precision][type]"""
                m = re.match(r"(?:(.)(?=[<>=^]))?([<>=^])?[-+ ]?(0)?(\\d*)(?:\\.(\\d*))?(.*)\\Z", format, re.DOTALL)
                fill, align, zero, width, precision, type = m.groups()
                if (
                    type
                    and type not in ALLOWED_TYPES
                    and type not in extra_types
                    and not any(k in type for k in dt_format_to_regex)
                ):
                    raise ValueError("format spec %r not recognised" % type)
                parts = {"fill": fill, "align": align, "zero": bool(zero), "width": width, "type": type}
                return {**parts, "precision": precision}
            ''',
            Witness(
                "sorted(extract_format('d', {}))",
                "['align', 'extra_types', 'fill', 'format', 'type', 'width', 'zero']",
                "['align', 'fill', 'precision', 'type', 'width', 'zero']",
            ),
        ),
    ),
    "Parser._expand_named_fields": (
        draft(
            "argument-shared",
            "a fast path for names without brackets: the argument itself is returned, not a new dict",
            """
            def _expand_named_fields(self, named_fields):
                if not any("[" in field for field in named_fields):
                    return named_fields
                result = {}
                for field, value in named_fields.items():
                    basename, bracket, rest = field.partition("[")
                    d, k = result, basename
                    if bracket:
                        for subkey in re.findall(r"\\[[^]]+]", bracket + rest):
                            d = d.setdefault(k, {})
                            k = subkey[1:-1]
                    d[k] = value
                return result
            """,
            Witness("(lambda d: Parser('{}')._expand_named_fields(d) is d)({'a': 1})", "False", "True"),
        ),
        draft(
            "kind-assumed",
            "the keys split on '][' instead of found by the pattern: an empty or unclosed bracket becomes a key",
            """
            def _expand_named_fields(self, named_fields):
                result = {}
                for field, value in named_fields.items():
                    n = field.find("[")
                    d, k = result, field if n == -1 else field[:n]
                    if n != -1:
                        for subkey in field[n + 1 : -1].split("]["):
                            d = d.setdefault(k, {})
                            k = subkey
                    d[k] = value
                return result
            """,
            Witness("Parser('{}')._expand_named_fields({'e[]': 1})", "{'e': 1}", "{'e': {'': 1}}"),
        ),
        draft(
            "empty-vs-none",
            "a parent taken as missing when it is falsy: an empty dict or a 0 is replaced by a new dict",
            """
            def _expand_named_fields(self, named_fields):
                result = {}
                for field, value in named_fields.items():
                    n = field.find("[")
                    basename, subkeys = (field, "") if n == -1 else (field[:n], field[n:])
                    d, k = result, basename
                    for subkey in re.findall(r"\\[[^]]+]", subkeys):
                        child = d.get(k) or {}
                        d[k] = child
                        d, k = child, subkey[1:-1]
                    d[k] = value
                return result
            """,
            Witness("Parser('{}')._expand_named_fields({'a': 0, 'a[b]': 1})", "raises TypeError", "{'a': {'b': 1}}"),
        ),
        draft(
            "order-assumed",
            "the names sorted, a parent before its children: a plain name after its indexed one now collides",
            """
            def _expand_named_fields(self, named_fields):
                result = {}
                for field, value in sorted(named_fields.items()):
                    n = field.find("[")
                    basename, subkeys = (field, "") if n == -1 else (field[:n], field[n:])
                    d, k = result, basename
                    for subkey in re.findall(r"\\[[^]]+]", subkeys):
                        d = d.setdefault(k, {})
                        k = subkey[1:-1]
                    d[k] = value
                return result
            """,
            Witness("Parser('{}')._expand_named_fields({'a[b]': 1, 'a': 2})", "{'a': 2}", "raises TypeError"),
        ),
    ),
}

# -- intervaltree 3.2.1 ---------------------------------------------------------------------
# intervaltree/interval.py imports Number and namedtuple, and defines Interval (a named tuple's
# subclass of begin, end and data); intervaltree/intervaltree.py imports Interval, Node, Number,
# SortedDict, copy, warn and MutableSet, defines xrange (range) and IntervalTree (all_intervals: a
# set, top_node: a Node or None, boundary_table: a SortedDict counting each bound). A method's draft
# is its def at the left margin; its witness builds the instance it calls the method on.

INTERVALTREE: dict[str, tuple[Draft, ...]] = {
    "Interval.overlaps": (
        draft(
            "null-range",
            "a null range taken to overlap nothing, as the tree's queries take it: one inside self overlaps here",
            '''
            def overlaps(self, begin, end=None):
                """Whether the interval overlaps the given point, range or Interval."""
                if end is not None:
                    # a null range (begin >= end) holds no point: it overlaps nothing
                    return begin < end and begin < self.end and end > self.begin
                try:
                    return self.overlaps(begin.begin, begin.end)
                except:
                    return self.contains_point(begin)
            ''',
            Witness("Interval(0, 10).overlaps(5, 5)", "True", "False"),
        ),
        draft(
            "kind-assumed",
            "isinstance(begin, Interval) for the bare try: another object with begin and end is taken as a point",
            '''
            def overlaps(self, begin, end=None):
                """Whether the interval overlaps the given point, range or Interval."""
                if end is not None:
                    return begin < self.end and end > self.begin
                # an Interval by its bounds, anything else as a point: no exception raised and caught
                if isinstance(begin, Interval):
                    return begin.begin < self.end and begin.end > self.begin
                return self.begin <= begin < self.end
            ''',
            Witness(
                "Interval(0, 10).overlaps(collections.namedtuple('Span', 'begin end')(2, 4))",
                "True",
                "raises TypeError",
            ),
        ),
    ),
    "Interval.contains_point": (
        draft(
            "bound-edge",
            "both bounds inclusive: the end of a half-open interval is taken to be in it",
            '''
            def contains_point(self, p):
                """Whether the Interval contains p."""
                return self.begin <= p <= self.end
            ''',
            Witness("Interval(0, 10).contains_point(10)", "False", "True"),
        ),
        draft(
            "kind-assumed",
            "membership in range(begin, end), O(1) for ints: a float point is never in it",
            '''
            def contains_point(self, p):
                """Whether the Interval contains p."""
                # range's __contains__ is O(1) for ints, with no chained comparison
                return p in range(self.begin, self.end)
            ''',
            Witness("Interval(0, 10).contains_point(2.5)", "True", "False"),
        ),
    ),
    "Interval.__eq__": (
        draft(
            "part-dropped",
            "the data left out, as the hash leaves it out: two intervals of one range with other data are equal",
            """
            def __eq__(self, other):
                # the hash is the range's: equal ranges are the equal intervals
                return self.begin == other.begin and self.end == other.end
            """,
            Witness("Interval(0, 1, 'a') == Interval(0, 1, 'b')", "False", "True"),
        ),
        draft(
            "error-changed",
            "the named tuple's own comparison: a plain tuple of the same fields is equal, not an AttributeError",
            """
            def __eq__(self, other):
                # the three fields at once, by the tuple's comparison in C
                return tuple.__eq__(self, other)
            """,
            Witness("Interval(0, 1) == (0, 1, None)", "raises AttributeError", "True"),
        ),
        draft(
            "identity-assumed",
            "an interval is equal to itself at once: one whose data is NaN was not",
            """
            def __eq__(self, other):
                if self is other:  # the same interval: nothing to compare
                    return True
                return self.begin == other.begin and self.end == other.end and self.data == other.data
            """,
            Witness("(lambda iv: iv == iv)(Interval(0, 1, float('nan')))", "False", "True"),
        ),
    ),
    "Interval.__cmp__": (
        draft(
            "error-changed",
            "the data compared with < alone: None against a string raises TypeError, not by the types' names",
            """
            def __cmp__(self, other):
                s = self[0:2]
                try:
                    o = other[0:2]
                except:
                    o = (other,)
                if s != o:
                    return -1 if s < o else 1
                # equal ranges: the data decide
                if self.data == other.data:
                    return 0
                return -1 if self.data < other.data else 1
            """,
            Witness("Interval(0, 1).__cmp__(Interval(0, 1, 'x'))", "-1", "raises TypeError"),
        ),
        draft(
            "order-assumed",
            "unorderable data ordered by their types' names with <: data of one such type no longer tie (0) but give 1",
            """
            def __cmp__(self, other):
                s = self[0:2]
                try:
                    o = other[0:2]
                except:
                    o = (other,)
                if s != o:
                    return -1 if s < o else 1
                try:
                    if self.data == other.data:
                        return 0
                    return -1 if self.data < other.data else 1
                except TypeError:
                    # data of kinds that do not order: by their types' names
                    return -1 if type(self.data).__name__ < type(other.data).__name__ else 1
            """,
            Witness("Interval(0, 1, {'a': 1}).__cmp__(Interval(0, 1, {'b': 1}))", "0", "1"),
        ),
    ),
    "Interval._raise_if_null": (
        draft(
            "null-range",
            "is_null() inlined as begin > end: an interval of no length (begin == end) passes",
            """
            def _raise_if_null(self, other):
                # is_null() inlined: no method call per comparison
                if self.begin > self.end:
                    raise ValueError("Cannot compare null Intervals!")
                if isinstance(other, Interval) and other.begin > other.end:
                    raise ValueError("Cannot compare null Intervals!")
            """,
            Witness("Interval(1, 1)._raise_if_null(5)", "raises ValueError", "None"),
        ),
        draft(
            "kind-assumed",
            "any tuple taken for an Interval (its base): a plain tuple of bounds raises AttributeError",
            """
            def _raise_if_null(self, other):
                if self.is_null():
                    raise ValueError("Cannot compare null Intervals!")
                # an Interval is a tuple: one isinstance() for the hasattr() lookup
                if isinstance(other, tuple) and other.is_null():
                    raise ValueError("Cannot compare null Intervals!")
            """,
            Witness("Interval(0, 1)._raise_if_null((5, 6))", "None", "raises AttributeError"),
        ),
    ),
    "Interval.length": (
        draft(
            "null-range",
            "abs() of the difference for the is_null() branch: a reversed interval has a length, not 0",
            '''
            def length(self):
                """The distance covered by this Interval."""
                return abs(self.end - self.begin)
            ''',
            Witness("Interval(5, 2).length()", "0", "3"),
        ),
        draft(
            "kind-assumed",
            "max() with 0 for the is_null() branch: a timedelta (two dates' length) cannot be compared with 0",
            '''
            def length(self):
                """The distance covered by this Interval."""
                return max(self.end - self.begin, 0)
            ''',
            Witness(
                "Interval(__import__('datetime').date(2020, 1, 1), __import__('datetime').date(2020, 1, 3)).length()",
                "__import__('datetime').timedelta(days=2)",
                "raises TypeError",
            ),
        ),
    ),
    "Interval.__repr__": (
        draft(
            "kind-assumed",
            "%r for the bounds, without isinstance() against Number: a Fraction is written Fraction(1, 2), not 1/2",
            """
            def __repr__(self):
                # one format, no isinstance() against the Number ABC
                if self.data is None:
                    return "Interval(%r, %r)" % (self.begin, self.end)
                return "Interval(%r, %r, %r)" % (self.begin, self.end, self.data)
            """,
            Witness(
                "repr(Interval(__import__('fractions').Fraction(1, 2), 1))",
                "'Interval(1/2, 1)'",
                "'Interval(Fraction(1, 2), 1)'",
            ),
        ),
        draft(
            "empty-vs-none",
            "the data tested for truth, not for None: data 0 or '' is left out of the text",
            """
            def __repr__(self):
                if isinstance(self.begin, Number):
                    s_begin, s_end = str(self.begin), str(self.end)
                else:
                    s_begin, s_end = repr(self.begin), repr(self.end)
                if not self.data:
                    return "Interval({0}, {1})".format(s_begin, s_end)
                return "Interval({0}, {1}, {2})".format(s_begin, s_end, repr(self.data))
            """,
            Witness("repr(Interval(0, 1, 0))", "'Interval(0, 1, 0)'", "'Interval(0, 1)'"),
        ),
    ),
    "IntervalTree.overlaps_range": (
        draft(
            "bound-edge",
            "the boundaries up to end included: an interval that begins where the range ends is taken to overlap it",
            """
            def overlaps_range(self, begin, end):
                if self.is_empty():
                    return False
                elif begin >= end:
                    return False
                elif self.overlaps_point(begin):
                    return True
                return any(self.overlaps_point(bound) for bound in self.boundary_table if begin < bound <= end)
            """,
            Witness("IntervalTree([Interval(5, 10)]).overlaps_range(0, 5)", "False", "True"),
        ),
        draft(
            "size-fast-path",
            "up to 8 intervals scanned with Interval.overlaps, which takes a null range for a range: it overlaps",
            """
            def overlaps_range(self, begin, end):
                if self.is_empty():
                    return False
                if len(self) <= 8:
                    # a few intervals: one pass over them beats the boundary table's scan
                    return any(iv.overlaps(begin, end) for iv in self.all_intervals)
                elif begin >= end:
                    return False
                elif self.overlaps_point(begin):
                    return True
                return any(self.overlaps_point(bound) for bound in self.boundary_table if begin < bound < end)
            """,
            Witness("IntervalTree([Interval(0, 10)]).overlaps_range(6, 4)", "False", "True"),
        ),
    ),
    "IntervalTree.at": (
        draft(
            "bound-edge",
            "a scan of the set with both bounds inclusive: an interval is found at its own end",
            '''
            def at(self, p):
                """Returns the set of all intervals that contain p."""
                # one pass over the set: no walk down the nodes
                return set(iv for iv in self.all_intervals if iv.begin <= p <= iv.end)
            ''',
            Witness("IntervalTree([Interval(0, 5)]).at(5)", "set()", "{Interval(0, 5)}"),
        ),
        draft(
            "empty-vs-none",
            "the empty tree's check dropped: its top node is None, and the search raises AttributeError",
            '''
            def at(self, p):
                """Returns the set of all intervals that contain p."""
                return self.top_node.search_point(p, set())
            ''',
            Witness("IntervalTree().at(1)", "set()", "raises AttributeError"),
        ),
    ),
    "IntervalTree.envelop": (
        draft(
            "kind-assumed",
            "a scan of the set by begin and end: an Interval given as the range raises TypeError",
            '''
            def envelop(self, begin, end=None):
                """Returns the set of all intervals fully contained in the range [begin, end)."""
                # one pass over the set: no boundary table, no filtering of a superset
                return set(iv for iv in self.all_intervals if begin <= iv.begin and iv.end <= end)
            ''',
            Witness("IntervalTree([Interval(0, 5)]).envelop(Interval(0, 10))", "{Interval(0, 5)}", "raises TypeError"),
        ),
    ),
    "IntervalTree.overlap": (
        draft(
            "bound-edge",
            "bisect_right for the range's end: an interval that begins at the end is found",
            '''
            def overlap(self, begin, end=None):
                """Returns a set of all intervals overlapping the given range."""
                root = self.top_node
                if not root:
                    return set()
                if end is None:
                    iv = begin
                    return self.overlap(iv.begin, iv.end)
                elif begin >= end:
                    return set()
                result = root.search_point(begin, set())
                boundary_table = self.boundary_table
                bound_begin = boundary_table.bisect_left(begin)
                bound_end = boundary_table.bisect_right(end)  # the boundaries up to end
                result.update(root.search_overlap(boundary_table.keys()[bound_begin:bound_end]))
                return result
            ''',
            Witness("IntervalTree([Interval(5, 10)]).overlap(0, 5)", "set()", "{Interval(5, 10)}"),
        ),
        draft(
            "null-range",
            "the null range's test dropped (its boundary scan is empty anyway): the intervals at begin are found",
            '''
            def overlap(self, begin, end=None):
                """Returns a set of all intervals overlapping the given range."""
                root = self.top_node
                if not root:
                    return set()
                if end is None:
                    iv = begin
                    return self.overlap(iv.begin, iv.end)
                # a null range has no boundary inside it: the slice below is empty, no test needed
                result = root.search_point(begin, set())
                boundary_table = self.boundary_table
                bound_begin = boundary_table.bisect_left(begin)
                bound_end = boundary_table.bisect_left(end)
                result.update(root.search_overlap(boundary_table.keys()[bound_begin:bound_end]))
                return result
            ''',
            Witness("IntervalTree([Interval(0, 10)]).overlap(5, 5)", "set()", "{Interval(0, 10)}"),
        ),
        draft(
            "self-state",
            "a range covering the whole tree answered with the tree's own set: the caller's changes reach the tree",
            '''
            def overlap(self, begin, end=None):
                """Returns a set of all intervals overlapping the given range."""
                root = self.top_node
                if not root:
                    return set()
                if end is None:
                    iv = begin
                    return self.overlap(iv.begin, iv.end)
                elif begin >= end:
                    return set()
                if begin <= self.begin() and end >= self.end():
                    return self.all_intervals  # the whole tree: no search
                result = root.search_point(begin, set())
                boundary_table = self.boundary_table
                bound_begin = boundary_table.bisect_left(begin)
                bound_end = boundary_table.bisect_left(end)
                result.update(root.search_overlap(boundary_table.keys()[bound_begin:bound_end]))
                return result
            ''',
            Witness("(lambda t: (t.overlap(0, 10).clear(), len(t))[1])(IntervalTree([Interval(0, 5)]))", "1", "0"),
        ),
    ),
    "IntervalTree.add": (
        draft(
            "error-changed",
            "a fast path for the empty tree's first interval: a null one is let in, not a ValueError",
            '''
            def add(self, interval):
                """Adds an interval to the tree, if not already present."""
                if not self.top_node:
                    # the first interval: a tree of one node, nothing to look up
                    self.top_node = Node.from_interval(interval)
                    self.all_intervals.add(interval)
                    self._add_boundaries(interval)
                    return
                if interval in self:
                    return
                if interval.is_null():
                    raise ValueError(
                        "IntervalTree: Null Interval objects not allowed in IntervalTree: {0}".format(interval)
                    )
                self.top_node = self.top_node.add(interval)
                self.all_intervals.add(interval)
                self._add_boundaries(interval)
            ''',
            Witness("IntervalTree().add(Interval(3, 3))", "raises ValueError", "None"),
        ),
        draft(
            "order-assumed",
            "no membership test, the sets being idempotent: an interval added twice counts its bounds twice",
            '''
            def add(self, interval):
                """Adds an interval to the tree, if not already present."""
                # all_intervals and the nodes are sets: adding one already there changes nothing
                if interval.is_null():
                    raise ValueError(
                        "IntervalTree: Null Interval objects not allowed in IntervalTree: {0}".format(interval)
                    )
                if not self.top_node:
                    self.top_node = Node.from_interval(interval)
                else:
                    self.top_node = self.top_node.add(interval)
                self.all_intervals.add(interval)
                self._add_boundaries(interval)
            ''',
            Witness(
                "(lambda t: (t.add(Interval(0, 5)), t.remove(Interval(0, 5)), t.end())[2])"
                "(IntervalTree([Interval(0, 5)]))",
                "0",
                "5",
            ),
        ),
    ),
    "IntervalTree.remove": (
        draft(
            "error-changed",
            "a missing interval passed over, as a set's discard does: no ValueError",
            '''
            def remove(self, interval):
                """Removes an interval from the tree, if present. If not, raises ValueError."""
                if interval not in self:
                    return  # nothing to remove
                self.top_node = self.top_node.remove(interval)
                self.all_intervals.remove(interval)
                self._remove_boundaries(interval)
            ''',
            Witness("IntervalTree().remove(Interval(0, 1))", "raises ValueError", "None"),
        ),
        draft(
            "error-changed",
            "set.remove() as the membership test: a missing interval raises KeyError, not ValueError",
            '''
            def remove(self, interval):
                """Removes an interval from the tree, if present. If not, raises ValueError."""
                # set.remove() tests membership itself: no separate `in` first
                self.all_intervals.remove(interval)
                self.top_node = self.top_node.remove(interval)
                self._remove_boundaries(interval)
            ''',
            Witness(
                "IntervalTree([Interval(0, 1)]).remove(Interval(0, 1, 'x'))", "raises ValueError", "raises KeyError"
            ),
        ),
        draft(
            "self-state",
            "the interval's bounds popped from the table: a bound another interval shares is lost with it",
            '''
            def remove(self, interval):
                """Removes an interval from the tree, if present. If not, raises ValueError."""
                if interval not in self:
                    raise ValueError
                self.top_node = self.top_node.remove(interval)
                self.all_intervals.remove(interval)
                # two dict operations, not a count kept per bound
                self.boundary_table.pop(interval.begin, None)
                self.boundary_table.pop(interval.end, None)
            ''',
            Witness(
                "(lambda t: (t.remove(Interval(0, 3)), t.begin())[1])(IntervalTree([Interval(0, 3), Interval(0, 5)]))",
                "0",
                "5",
            ),
        ),
    ),
    "IntervalTree.discard": (
        draft(
            "error-changed",
            "remove() under a try that catches KeyError, as for a set: remove's ValueError gets out",
            '''
            def discard(self, interval):
                """Removes an interval from the tree, if present. If not, does nothing."""
                try:
                    self.remove(interval)
                except KeyError:
                    pass
            ''',
            Witness("IntervalTree().discard(Interval(0, 1))", "None", "raises ValueError"),
        ),
        draft(
            "self-state",
            "no membership test, set's and the nodes' discard() being no-ops: a missing interval's bounds come off",
            '''
            def discard(self, interval):
                """Removes an interval from the tree, if present. If not, does nothing."""
                # set.discard() and the nodes' discard() do nothing for a missing interval
                self.all_intervals.discard(interval)
                if self.top_node:
                    self.top_node = self.top_node.discard(interval)
                    self._remove_boundaries(interval)
            ''',
            Witness(
                "(lambda t: (t.discard(Interval(0, 5, 'x')), t.end())[1])(IntervalTree([Interval(0, 5)]))", "5", "0"
            ),
        ),
    ),
    "IntervalTree.__len__": (
        draft(
            "order-assumed",
            "half the boundaries counted, the intervals taken to share none: two that touch are one",
            """
            def __len__(self):
                # two boundaries per interval, and the table is at hand
                return len(self.boundary_table) // 2
            """,
            Witness("len(IntervalTree([Interval(0, 1), Interval(1, 2)]))", "2", "1"),
        ),
        draft(
            "self-state",
            "the count cached on the tree: stale after the next add or remove",
            """
            def __len__(self):
                try:
                    return self._size
                except AttributeError:
                    self._size = len(self.all_intervals)
                    return self._size
            """,
            Witness("(lambda t: (len(t), t.add(Interval(0, 1)), len(t))[2])(IntervalTree())", "1", "0"),
        ),
    ),
}

# -- cachetools 8.0.3 -----------------------------------------------------------------------
# src/cachetools/__init__.py imports collections, collections.abc, functools, heapq, random and time,
# and defines Cache (a MutableMapping: its items in a private dict, `self.__data`, their sizes in
# `self.__size` when a getsizeof is given, its current and maximum size) and its subclasses, which
# keep an order beside it (FIFOCache and LRUCache an OrderedDict, `self.__order`; LFUCache a ring of
# links by use count). A method's draft is its def at the left margin, its private names written as
# in its class; its witness builds the cache it calls the method on.

# LRUCache's and FIFOCache's popitem written alike: the first of the items' own dict, whatever
# order of use or of setting the subclass keeps beside it
_CACHE_POPITEM_BY_ITEMS_ORDER = """
def popitem(self):
    try:
        key = next(iter(self))
    except StopIteration:
        raise KeyError("%s is empty" % type(self).__name__) from None
    value = Cache.__getitem__(self, key)
    del self[key]
    return (key, value)
"""

CACHETOOLS: dict[str, tuple[Draft, ...]] = {
    "Cache.__copy__": (
        draft(
            "argument-shared",
            "the items' dict carried over with the rest of the attributes, not copied: the copy and the cache share it",
            """
            def __copy__(self):
                cls = type(self)
                copy = cls.__new__(cls)
                copy.__dict__.update(self.__dict__)  # one update carries everything, the data included
                return copy
            """,
            Witness(
                "(lambda c: (c.__setitem__(1, 1), c.__copy__()._Cache__data is c._Cache__data)[1])(Cache(4))",
                "False",
                "True",
            ),
        ),
    ),
    "LRUCache.__copy__": (
        draft(
            "argument-shared",
            "the order of use shared with the copy: a read of one reorders the other",
            """
            def __copy__(self):
                copy = super().__copy__()
                copy.__order = self.__order  # the base class copied the items already
                return copy
            """,
            Witness(
                "(lambda c: (c.__setitem__(1, 1), c.__copy__()._LRUCache__order is c._LRUCache__order)[1])"
                "(LRUCache(4))",
                "False",
                "True",
            ),
        ),
    ),
    "LFUCache.__setstate__": (
        draft(
            "self-state",
            "the ring's root taken as the pickle left it: its links are not made a ring again before the others join",
            """
            def __setstate__(self, state):
                self.__dict__.update(state)
                root = self.__root
                for link in sorted(set(self.__links.values()), key=lambda obj: obj.count):
                    link.insert(root)
            """,
            Witness(
                "(lambda c, p=__import__('pickle'): (c.__setitem__(1, 1), p.loads(p.dumps(c)).popitem())[1])"
                "(LFUCache(4))",
                "(1, 1)",
                "raises AttributeError",
            ),
        ),
    ),
    "Cache.get": (
        draft(
            "self-state",
            "the items' dict read directly: a subclass's __getitem__ (LRU's note of the use) is skipped",
            """
            def get(self, key, default=None):
                return self.__data.get(key, default)
            """,
            Witness(
                "(lambda c: (c.__setitem__(1, 1), c.__setitem__(2, 2), c.get(1), c.popitem())[-1])(LRUCache(4))",
                "(2, 2)",
                "(1, 1)",
            ),
        ),
    ),
    "Cache.pop": (
        draft(
            "empty-vs-none",
            "None taken as the missing default: pop(key, None) of a missing key raises",
            """
            def pop(self, key, default=None):
                if key in self:
                    value = self[key]
                    del self[key]
                    return value
                if default is None:
                    raise KeyError(key)
                return default
            """,
            Witness("Cache(2).pop(1, None)", "None", "raises KeyError"),
        ),
    ),
    "Cache.setdefault": (
        draft(
            "self-state",
            "the items' dict's own setdefault: the size is not counted and nothing is evicted",
            """
            def setdefault(self, key, default=None):
                return self.__data.setdefault(key, default)
            """,
            Witness(
                "(lambda c: (c.setdefault(1, 1), c.setdefault(2, 2), c.setdefault(3, 3), len(c))[-1])(Cache(2))",
                "2",
                "3",
            ),
        ),
    ),
    "Cache.__setitem__": (
        draft(
            "order-assumed",
            "every key taken to be new: setting one already there evicts another and counts it twice",
            """
            def __setitem__(self, key, value):
                data = self.__data
                size = self.__size
                maxsize = self.__maxsize
                itemsize = 1 if size is None else self.getsizeof(value)
                if itemsize > maxsize:
                    raise ValueError("value too large")
                if itemsize < 0:
                    raise ValueError("value size must be non-negative")
                while self.__currsize + itemsize > maxsize:
                    self.popitem()
                data[key] = value
                if size is not None:
                    size[key] = itemsize
                self.__currsize += itemsize
            """,
            Witness("(lambda c: (c.__setitem__(1, 1), c.__setitem__(1, 2), c.currsize)[-1])(Cache(2))", "1", "2"),
        ),
    ),
    "LRUCache.popitem": (
        draft(
            "order-assumed",
            "the items' own order taken for the order of use: the oldest set, not the least recently used",
            _CACHE_POPITEM_BY_ITEMS_ORDER,
            Witness(
                "(lambda c: (c.__setitem__(1, 1), c.__setitem__(2, 2), c.__getitem__(1), c.popitem())[-1])"
                "(LRUCache(4))",
                "(2, 2)",
                "(1, 1)",
            ),
        ),
    ),
    "FIFOCache.popitem": (
        draft(
            "order-assumed",
            "the items' own order taken for the order of setting: a key set again keeps its first place",
            _CACHE_POPITEM_BY_ITEMS_ORDER,
            Witness(
                "(lambda c: (c.__setitem__(1, 1), c.__setitem__(2, 2), c.__setitem__(1, 3), c.popitem())[-1])"
                "(FIFOCache(4))",
                "(2, 2)",
                "(1, 3)",
            ),
        ),
    ),
}


SQLPARSE: dict[str, tuple[Draft, ...]] = {
    "group_typecasts": (
        draft(
            "option-ignored",
            "the casts grouped at the statement's top level only: those inside a group are left as they are",
            """
            def group_typecasts(tlist):
                def match(token):
                    return token.match(T.Punctuation, '::')

                def valid(token):
                    return token is not None

                def post(tlist, pidx, tidx, nidx):
                    return pidx, nidx

                _group(tlist, sql.Identifier, match, valid, valid, post, recurse=False)
            """,
        ),
    ),
    "group_comparison": (
        draft(
            "part-dropped",
            "NULL left out of what may stand beside a comparison: `x = NULL` is no Comparison",
            """
            def group_comparison(tlist):
                sqlcls = (sql.Parenthesis, sql.Function, sql.Identifier, sql.Operation, sql.TypedLiteral)
                ttypes = T_NUMERICAL + T_STRING + T_NAME

                def match(token):
                    return token.ttype == T.Operator.Comparison

                def valid(token):
                    return bool(imt(token, t=ttypes, i=sqlcls))

                def post(tlist, pidx, tidx, nidx):
                    return pidx, nidx

                _group(tlist, sql.Comparison, match, valid, valid, post, extend=False)
            """,
        ),
    ),
    "group_identifier": (
        draft(
            "kind-assumed",
            "the names found by a tuple's membership, which asks for the kind itself, not for a kind below it "
            "(a builtin name, a placeholder)",
            """
            @recurse(sql.Identifier)
            def group_identifier(tlist):
                ttypes = (T.String.Symbol, T.Name)
                for tidx, token in enumerate(tlist.tokens):
                    if token.ttype in ttypes:
                        tlist.group_tokens(sql.Identifier, tidx, tidx)
            """,
        ),
    ),
    "group_where": (
        draft(
            "bound-edge",
            "the WHERE clause taken up to and including the keyword that ends it",
            """
            @recurse(sql.Where)
            def group_where(tlist):
                tidx, token = tlist.token_next_by(m=sql.Where.M_OPEN)
                while token:
                    eidx, end = tlist.token_next_by(m=sql.Where.M_CLOSE, idx=tidx)
                    end = tlist._groupable_tokens[-1] if end is None else end
                    tlist.group_tokens(sql.Where, tidx, tlist.token_index(end))
                    tidx, token = tlist.token_next_by(m=sql.Where.M_OPEN, idx=tidx)
            """,
        ),
    ),
    "group_order": (
        draft(
            "part-dropped",
            "only identifiers taken before ASC or DESC: a column's number (`ORDER BY 1 DESC`) is left alone",
            """
            @recurse(sql.Identifier)
            def group_order(tlist):
                tidx, token = tlist.token_next_by(t=T.Keyword.Order)
                while token:
                    pidx, prev_ = tlist.token_prev(tidx)
                    if isinstance(prev_, sql.Identifier):
                        tlist.group_tokens(sql.Identifier, pidx, tidx)
                        tidx = pidx
                    tidx, token = tlist.token_next_by(t=T.Keyword.Order, idx=tidx)
            """,
        ),
    ),
    "group_values": (
        draft(
            "part-dropped",
            "the VALUES clause ended at its first row",
            """
            def group_values(tlist):
                tidx, token = tlist.token_next_by(m=(T.Keyword, 'VALUES'))
                start_idx = tidx
                while token:
                    if isinstance(token, sql.Parenthesis):
                        tlist.group_tokens(sql.Values, start_idx, tidx, extend=True)
                        return
                    tidx, token = tlist.token_next(tidx)
            """,
        ),
    ),
    "group_functions": (
        draft(
            "strict-parse",
            "CREATE, TABLE and AS recognised in capitals only: `create table t as select f(x)` keeps no function",
            """
            @recurse(sql.Function)
            def group_functions(tlist):
                values = {token.value for token in tlist.tokens}
                if 'CREATE' in values and 'TABLE' in values and 'AS' not in values:
                    return
                tidx, token = tlist.token_next_by(t=T.Name)
                while token:
                    nidx, next_ = tlist.token_next(tidx)
                    if isinstance(next_, sql.Parenthesis):
                        over_idx, over = tlist.token_next(nidx)
                        eidx = over_idx if over and isinstance(over, sql.Over) else nidx
                        tlist.group_tokens(sql.Function, tidx, eidx)
                    tidx, token = tlist.token_next_by(t=T.Name, idx=tidx)
            """,
        ),
    ),
    "group_aliased": (
        draft(
            "part-dropped",
            "a number no longer takes an alias: only groups are looked for",
            """
            @recurse()
            def group_aliased(tlist):
                I_ALIAS = (sql.Parenthesis, sql.Function, sql.Case, sql.Identifier, sql.Operation, sql.Comparison)
                tidx, token = tlist.token_next_by(i=I_ALIAS)
                while token:
                    nidx, next_ = tlist.token_next(tidx)
                    if isinstance(next_, sql.Identifier):
                        tlist.group_tokens(sql.Identifier, tidx, nidx, extend=True)
                    tidx, token = tlist.token_next_by(i=I_ALIAS, idx=tidx)
            """,
        ),
    ),
    "group_comments": (
        draft(
            "bound-edge",
            "comments that run to the statement's end grouped too: the end taken as the last token",
            """
            @recurse(sql.Comment)
            def group_comments(tlist):
                tidx, token = tlist.token_next_by(t=T.Comment)
                while token:
                    eidx, end = tlist.token_not_matching(lambda tk: imt(tk, t=T.Comment) or tk.is_newline, idx=tidx)
                    if end is None:
                        eidx = len(tlist.tokens)
                    eidx, end = tlist.token_prev(eidx, skip_ws=False)
                    tlist.group_tokens(sql.Comment, tidx, eidx)
                    tidx, token = tlist.token_next_by(t=T.Comment, idx=tidx)
            """,
        ),
    ),
    "group_period": (
        draft(
            "part-dropped",
            "what follows the dot always joined, the check of what may follow it dropped",
            """
            def group_period(tlist):
                def match(token):
                    return token.match(T.Punctuation, '.') or token.match(T.Operator, ('->', '->>'))

                def valid_prev(token):
                    return imt(token, i=(sql.SquareBrackets, sql.Identifier), t=(T.Name, T.String.Symbol))

                def valid_next(token):
                    return True

                def post(tlist, pidx, tidx, nidx):
                    return pidx, nidx

                _group(tlist, sql.Identifier, match, valid_prev, valid_next, post)
            """,
        ),
    ),
    "group_operator": (
        draft(
            "self-state",
            "the operator's own kind left as it was (a `*` stays a wildcard inside the operation)",
            """
            def group_operator(tlist):
                ttypes = T_NUMERICAL + T_STRING + T_NAME
                sqlcls = (sql.SquareBrackets, sql.Parenthesis, sql.Function, sql.Identifier, sql.Operation,
                          sql.TypedLiteral)
                now = (T.Keyword, ('CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP'))

                def valid(token):
                    return imt(token, i=sqlcls, t=ttypes) or (token and token.match(*now))

                _group(tlist, sql.Operation, lambda token: imt(token, t=(T.Operator, T.Wildcard)), valid, valid,
                       lambda tlist, pidx, tidx, nidx: (pidx, nidx), extend=False)
            """,
        ),
    ),
    "group_identifier_list": (
        draft(
            "part-dropped",
            "comments no longer stand in a list: `a, -- note` ends it",
            """
            def group_identifier_list(tlist):
                sqlcls = (sql.Function, sql.Case, sql.Identifier, sql.Comparison, sql.IdentifierList, sql.Operation)
                ttypes = T_NUMERICAL + T_STRING + T_NAME + (T.Keyword, T.Wildcard)

                def valid(token):
                    return imt(token, i=sqlcls, m=(T.Keyword, ('null', 'role')), t=ttypes)

                _group(tlist, sql.IdentifierList, lambda token: token.match(T.Punctuation, ','), valid, valid,
                       lambda tlist, pidx, tidx, nidx: (pidx, nidx), extend=True)
            """,
        ),
    ),
    "group_as": (
        draft(
            "empty-vs-none",
            "the check that something follows AS dropped: an AS that ends the statement",
            """
            def group_as(tlist):
                def match(token):
                    return token.is_keyword and token.normalized == 'AS'

                def valid_prev(token):
                    return token.normalized == 'NULL' or not token.is_keyword

                def valid_next(token):
                    return not imt(token, t=(T.DML, T.DDL, T.CTE))

                _group(tlist, sql.Identifier, match, valid_prev, valid_next, lambda tlist, p, t, n: (p, n))
            """,
        ),
    ),
    "Token.match": (
        draft(
            "kind-assumed",
            "the kind matched with `in`, so a kind below the one asked for matches too",
            """
            def match(self, ttype, values, regex=False):
                if self.ttype not in ttype or values is None:
                    return self.ttype in ttype
                if isinstance(values, str):
                    values = (values,)
                if regex:
                    flag = re.IGNORECASE if self.is_keyword else 0
                    return any(re.search(v, self.normalized, flag) for v in values)
                if self.is_keyword:
                    return self.normalized in {v.upper() for v in values}
                return self.normalized in values
            """,
        ),
        draft(
            "strict-parse",
            "the patterns matched at the start of the text only (`re.match` for `search`)",
            """
            def match(self, ttype, values, regex=False):
                if self.ttype is not ttype or values is None:
                    return self.ttype is ttype
                if isinstance(values, str):
                    values = (values,)
                if regex:
                    flag = re.IGNORECASE if self.is_keyword else 0
                    return any(re.match(v, self.normalized, flag) for v in values)
                if self.is_keyword:
                    return self.normalized in {v.upper() for v in values}
                return self.normalized in values
            """,
        ),
    ),
    "Token.within": (
        draft(
            "bound-edge",
            "the token itself counted among its ancestors",
            """
            def within(self, group_cls):
                node = self
                while node:
                    if isinstance(node, group_cls):
                        return True
                    node = node.parent
                return False
            """,
        ),
    ),
    "TokenList.token_next": (
        draft(
            "empty-vs-none",
            "None for no index, where the original gives the pair (None, None)",
            """
            def token_next(self, idx, skip_ws=True, skip_cm=False, _reverse=False):
                if idx is None:
                    return None

                def matcher(tk):
                    return not ((skip_ws and tk.is_whitespace) or (skip_cm and imt(tk, t=T.Comment, i=Comment)))
                return self._token_matching(matcher, idx + 1, reverse=_reverse)
            """,
        ),
    ),
    "TokenList.group_tokens": (
        draft(
            "self-state",
            "the group's text not brought up to date when it is extended",
            """
            def group_tokens(self, grp_cls, start, end, include_end=True, extend=False):
                start_idx, end_idx = start, end + include_end
                first = self.tokens[start_idx]
                if extend and isinstance(first, grp_cls):
                    subtokens = self.tokens[start_idx + 1:end_idx]
                    grp = first
                    grp.tokens.extend(subtokens)
                    del self.tokens[start_idx + 1:end_idx]
                else:
                    subtokens = self.tokens[start_idx:end_idx]
                    grp = grp_cls(subtokens)
                    self.tokens[start_idx:end_idx] = [grp]
                    grp.parent = self
                for token in subtokens:
                    token.parent = grp
                return grp
            """,
        ),
    ),
    "Statement.get_type": (
        draft(
            "option-ignored",
            "comments before the first keyword no longer skipped",
            """
            def get_type(self):
                token = self.token_first()
                if token is None:
                    return 'UNKNOWN'
                if token.ttype in (T.Keyword.DML, T.Keyword.DDL):
                    return token.normalized
                if token.ttype == T.Keyword.CTE:
                    tidx = self.token_index(token)
                    while tidx is not None:
                        tidx, token = self.token_next(tidx, skip_ws=True)
                        if isinstance(token, (Identifier, IdentifierList)):
                            tidx, token = self.token_next(tidx, skip_ws=True)
                            if token is not None and token.ttype == T.Keyword.DML:
                                return token.normalized
                return 'UNKNOWN'
            """,
        ),
    ),
    "Case.get_cases": (
        draft(
            "empty-vs-none",
            "the ELSE branch given an empty condition, where the original gives None",
            """
            def get_cases(self, skip_ws=False):
                ret, mode = [], 1
                for token in self.tokens:
                    if token.match(T.Keyword, 'CASE') or (skip_ws and token.ttype in T.Whitespace):
                        continue
                    elif token.match(T.Keyword, 'WHEN'):
                        ret.append(([], []))
                        mode = 1
                    elif token.match(T.Keyword, 'THEN'):
                        mode = 2
                    elif token.match(T.Keyword, 'ELSE'):
                        ret.append(([], []))
                        mode = 2
                    elif token.match(T.Keyword, 'END'):
                        mode = None
                    if mode and not ret:
                        ret.append(([], []))
                    if mode == 1:
                        ret[-1][0].append(token)
                    elif mode == 2:
                        ret[-1][1].append(token)
                return ret
            """,
        ),
    ),
    "TokenList.__getitem__": (
        draft(
            "index-edge",
            "an index past either end gives None instead of raising",
            """
            def __getitem__(self, item):
                if isinstance(item, int) and not -len(self.tokens) <= item < len(self.tokens):
                    return None
                return self.tokens[item]
            """,
        ),
    ),
}

DRAFTS: dict[str, dict[str, tuple[Draft, ...]]] = {
    "funcy": FUNCY,
    "fnc": FNC,
    "boltons": BOLTONS,
    "more_itertools": MORE_ITERTOOLS,
    "flatten_dict": FLATTEN_DICT,
    "ubelt": UBELT,
    "nested-lookup": NESTED_LOOKUP,
    "dpath": DPATH,
    "ordered-set": ORDERED_SET,
    "dictdiffer": DICTDIFFER,
    "semver": SEMVER,
    "isodate": ISODATE,
    "parse": PARSE,
    "intervaltree": INTERVALTREE,
    "cachetools": CACHETOOLS,
    "sqlparse": SQLPARSE,
}
