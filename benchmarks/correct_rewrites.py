"""Correct rewrites of two real libraries' functions, as a capable model writes them: the drafts
that benchmarks/guard_refusals.py hands to the static guard, which must let them through.

Each rewrite keeps the original's signature (names, defaults as written, decorators) and its
docstring's examples, and behaves exactly like the original on every input the original accepts:
results, iterators read as far and as lazily, keyword options, None defaults, arguments changed in
place, and the errors raised. Each was checked against its original with the library's own test
suite (the rewrite swapped into a scratch copy of the sdist) and with a randomized differential
comparison (a few hundred calls per function: lists, tuples, strings, one-shot iterators, mappings,
empty and one-item inputs, sentinels, calls that raise), whose log of each input item read, each
result item and each exception had to be the same for both.

The libraries are pinned (LIBRARIES) and read from their sdists: `path` is the module file inside
the unpacked sdist, `function` the target as coderefine names it (`Class.method` for a method).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Library:
    """A pinned pure-Python library on PyPI, read from its sdist."""

    name: str  # as pip knows it
    version: str
    about: str  # what its functions take and give


@dataclass(frozen=True)
class Rewrite:
    """A correct rewrite of one of a library's functions: what a model answers."""

    library: str
    path: str  # the module file inside the unpacked sdist
    function: str  # "name" or "Class.method"
    description: str
    draft: str


LIBRARIES = (
    Library(
        "jaraco.itertools",
        "6.4.3",
        "untyped iterator tools: one-shot iterators read partly, lazy results, keyword options, "
        "a `**kwargs` key, a class built on a queue; the module imports queue, warnings, inflect "
        "and more_itertools",
    ),
    Library(
        "dictdiffer",
        "0.9.0",
        "untyped diff and patch of nested dicts, lists and sets: mappings, keyword options with "
        "None defaults, patches as tuples, nested closures, in-place changes of the destination, "
        "classes that keep state on self; its modules import sys, copy and numpy (optional)",
    ),
)

_JARACO = "jaraco/itertools.py"

JARACO_ITERTOOLS = (
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "is_empty",
        "next() with a private sentinel instead of try/except StopIteration",
        '''
def is_empty(iterable):
    """
    Return whether the iterable is empty or not. Consumes at most one item
    from the iterator to test.

    >>> is_empty(iter(range(0)))
    True
    >>> is_empty(iter(range(1)))
    False
    """
    missing = object()
    return next(iter(iterable), missing) is missing
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "remove_duplicates",
        "a generator expression over groupby instead of two nested map() calls with itemgetter",
        '''
def remove_duplicates(iterable, key=None):
    """
    Given an iterable with items that may come in as sequential duplicates,
    remove those duplicates.

    Unlike unique_justseen, this function does not remove triplicates.

    >>> ' '.join(remove_duplicates('abcaabbccaaabbbcccbcbc'))
    'a b c a b c a a b b c c b c b c'
    >>> ' '.join(remove_duplicates('aaaabbbbb'))
    'a a b b b'
    """
    groups = itertools.groupby(iterable, key)
    return itertools.chain.from_iterable(every_other(group) for _, group in groups)
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "first",
        "one expression: next(iter(iterable), *args)",
        '''
def first(iterable, *args):
    """
    Return the first item from the iterable.

    >>> first(range(11))
    0
    >>> first([3,2,1])
    3
    >>> iter = range(11)
    >>> first(iter)
    0

    Raises StopIteration if no value is present.

    >>> first([])
    Traceback (most recent call last):
    ...
    StopIteration

    Pass a default to be used when iterable is empty.

    >>> first([], None)

    """
    return next(iter(iterable), *args)
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "last",
        "collections.deque(maxlen=1) keeps the last item, instead of a loop and a NameError",
        '''
def last(iterable):
    """
    Return the last item from the iterable, discarding the rest.

    >>> last(range(20))
    19
    >>> last([])
    Traceback (most recent call last):
    ...
    ValueError: Iterable contains no items
    """
    tail = collections.deque(iterable, maxlen=1)
    if not tail:
        raise ValueError("Iterable contains no items")
    return tail[0]
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "nwise",
        "one itertools.tee into n copies, each advanced by more_itertools.consume, not a chain of tees",
        '''
def nwise(iter, n):
    """
    Like pairwise, except returns n-tuples of adjacent items.
    s -> (s0,s1,...,sn), (s1,s2,...,s(n+1)), ...
    """
    if not 1 < n:
        return zip(iter)
    # the original's loop makes copies until there are at least n of them
    iterators = itertools.tee(iter, math.ceil(n))
    for offset, iterator in enumerate(iterators):
        more_itertools.consume(iterator, offset)
    return zip(*iterators)
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "partition_items",
        "each bin's size in closed form, len(range(start, count, num_bins)), instead of a loop over every item",
        '''
def partition_items(count, bin_size):
    """
    Given the total number of items, determine the number of items that
    can be added to each bin with a limit on the bin size.

    So if you want to partition 11 items into groups of 3, you'll want
    three of three and one of two.

    >>> partition_items(11, 3)
    [3, 3, 3, 2]

    But if you only have ten items, you'll have two groups of three and
    two of two.

    >>> partition_items(10, 3)
    [3, 3, 2, 2]
    """
    num_bins = int(math.ceil(count / float(bin_size)))
    if num_bins <= 0:
        # no bins: nothing to spread, or a count that cannot be spread (the loop's own errors)
        bins = [0] * num_bins
        for i in range(count):
            bins[i % num_bins] += 1
        return bins
    # bin j holds the items j, j + num_bins, j + 2 * num_bins, ... below count
    return [len(range(start, count, num_bins)) for start in range(num_bins)]
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "reverse_lists",
        "a list comprehension instead of list(map(list, map(reversed, lists)))",
        '''
def reverse_lists(lists):
    """
    >>> reverse_lists([[1,2,3], [4,5,6]])
    [[3, 2, 1], [6, 5, 4]]
    """
    return [list(reversed(items)) for items in lists]
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "duplicates",
        "the groups as a generator expression and the filter as a lambda, no nested function",
        '''
def duplicates(*iterables, **kwargs):
    """
    Yield duplicate items from any number of sorted iterables of items

    >>> items_a = [1, 2, 3]
    >>> items_b = [0, 3, 4, 5, 6]
    >>> list(duplicates(items_a, items_b))
    [(3, 3)]

    It won't behave as you expect if the iterables aren't ordered

    >>> items_b.append(1)
    >>> list(duplicates(items_a, items_b))
    [(3, 3)]
    >>> list(duplicates(items_a, sorted(items_b)))
    [(1, 1), (3, 3)]

    This function is most interesting when it's operating on a key
    of more complex objects.

    >>> items_a = [dict(email='joe@example.com', id=1)]
    >>> items_b = [dict(email='joe@example.com', id=2), dict(email='other')]
    >>> dupe, = duplicates(items_a, items_b, key=operator.itemgetter('email'))
    >>> dupe[0]['email'] == dupe[1]['email'] == 'joe@example.com'
    True
    >>> dupe[0]['id']
    1
    >>> dupe[1]['id']
    2
    """
    key = kwargs.pop('key', lambda x: x)
    assert not kwargs
    merged = heapq.merge(*iterables, key=key)
    groups = (tuple(group) for _, group in itertools.groupby(merged, key=key))
    return filter(lambda group: len(group) > 1, groups)
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "partition_dict",
        "a lambda for the takewhile predicate instead of a nested function that unpacks the pair",
        '''
def partition_dict(items, key):
    """
    Given a dictionary of items and a key in that dict,
    return another dict of items before, the keyed item, and
    the dict of items after.

    >>> od = dict(zip(range(5), 'abcde'))
    >>> before, item, after = partition_dict(od, 3)
    >>> before
    {0: 'a', 1: 'b', 2: 'c'}
    >>> item
    'd'
    >>> after
    {4: 'e'}

    Like string.partition, if the key is not found in the items,
    the before will contain all items, item will be None, and
    after will be an empty iterable.

    >>> before, item, after = partition_dict(od, -1)
    >>> before
    {0: 'a', ..., 4: 'e'}
    >>> item
    >>> after
    {}
    """
    pairs = iter(items.items())
    item = items.get(key)
    before = dict(itertools.takewhile(lambda pair: pair[0] != key, pairs))
    return before, item, dict(pairs)
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "find_subseq",
        "more_itertools.windowed with a private fill value and enumerate, instead of locate and a closure",
        '''
def find_subseq(seq: Iterable[Any], cand: Iterable[Any]):
    """Find cand in seq.

    Args:
        seq: iterable of items to be searched
        cand: iterable of items that must match

    Returns:
        The index where cand can be found in seq or None.

    >>> find_subseq([-1, 0, 1, 2], [1, 2])
    2
    >>> find_subseq([-1, 0, 1, 2], [0, 2])
    >>> find_subseq([-1, 0, 1, 2], [2, 1])
    >>> find_subseq([-1, 0, 1, 2], [])
    Traceback (most recent call last):
    ...
    ValueError: window size must be at least 1
    """
    cand = tuple(cand)
    if not cand:
        raise ValueError('window size must be at least 1')
    missing = object()  # pads a window past the end: never equal to cand
    windows = more_itertools.windowed(seq, len(cand), fillvalue=missing)
    return next((index for index, window in enumerate(windows) if window == cand), None)
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "summarize",
        "plain counters in a dict.fromkeys, instead of itertools.count objects and a product",
        '''
def summarize(items: Iterable, **bin_checks):
    """
    >>> is_str = lambda item: isinstance(item, str)
    >>> is_int = lambda item: isinstance(item, int)
    >>> summarize(['a', 'b', 20], strings=is_str, ints=is_int)
    {'strings': 2, 'ints': 1}
    """
    counts = dict.fromkeys(bin_checks, 0)
    for item in tuple(items):
        for name, check in bin_checks.items():
            if check(item):
                counts[name] += 1
    return counts
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "GroupbySaved.get_first_n_queues",
        "contextlib.suppress(StopIteration) instead of try/except/pass, and a clearer padding",
        '''
import contextlib


def get_first_n_queues(self, n):
    """
    Run through the sequence until n queues are created and return
    them. If fewer are created, return those plus empty iterables to
    compensate.
    """
    with contextlib.suppress(StopIteration):
        while len(self.queues) < n:
            self.__fetch__()
    values = list(self.queues.values())
    values.extend(iter([]) for _ in range(n - len(values)))
    return values
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "islice._formatArgs",
        "len() read once, an if/elif chain, and positional % formatting instead of % locals()",
        """
def _formatArgs(self):
    def slice_range(a_b):
        return '%d to %d' % (a_b[0], a_b[1] - 1)

    count = len(self.sliceArgs)
    if count == 1:
        result = 'at most %d' % self.sliceArgs
    elif count == 2:
        result = 'items %s' % slice_range(self.sliceArgs)
    elif count == 3:
        nth = inflect.engine().ordinal(self.sliceArgs[2])
        result = 'every %s item from %s' % (nth, slice_range(self.sliceArgs[0:2]))
    return result
""",
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "grouper_nofill_str",
        "an early return for strings instead of rebinding the result",
        '''
def grouper_nofill_str(n, iterable):
    """
    Take a sequence and break it up into chunks of the specified size.
    The last chunk may be smaller than size.

    This works very similar to grouper_nofill, except
    it works with strings as well.

    >>> tuple(grouper_nofill_str(3, 'foobarbaz'))
    ('foo', 'bar', 'baz')

    You can still use it on non-strings too if you like.

    >>> tuple(grouper_nofill_str(42, []))
    ()

    >>> tuple(grouper_nofill_str(3, list(range(10))))
    ([0, 1, 2], [3, 4, 5], [6, 7, 8], [9])
    """
    chunks = more_itertools.chunked(iterable, n)
    if not isinstance(iterable, str):
        return chunks
    return (''.join(chunk) for chunk in chunks)
''',
    ),
    Rewrite(
        "jaraco.itertools",
        _JARACO,
        "self_product",
        "itertools.product(iterable, repeat=2) instead of a product of two tees",
        '''
def self_product(iterable):
    """
    Return the cross product of the iterable with itself.

    >>> list(self_product([1, 2, 3]))
    [(1, 1), (1, 2), ..., (3, 3)]
    """
    return itertools.product(iterable, repeat=2)
''',
    ),
)

_UTILS = "dictdiffer/utils.py"
_INIT = "dictdiffer/__init__.py"

DICTDIFFER = (
    Rewrite(
        "dictdiffer",
        _UTILS,
        "WildcardDict.query_path",
        "the star-key prefixes walked with range() from the longest, not built as a list of slices first",
        '''
def query_path(self, key):
    """Return the key (path) that matches the queried key.

    >>> w = WildcardDict({('foo', '*'): 'banana'})
    >>> w.query_path(('foo', 'bar', 'baz'))
    ('foo', '*')
    """
    if key in self:
        return key
    if key[:-1] in self.plus_keys:
        return key[:-1] + ('+',)
    for end in range(len(key) - 1, -1, -1):
        if key[:end] in self.star_keys:
            return key[:end] + ('*',)
    raise KeyError
''',
    ),
    Rewrite(
        "dictdiffer",
        _UTILS,
        "create_dotted_node",
        "a generator expression in all() instead of map() and a lambda, no else after return",
        '''
def create_dotted_node(node):
    """Create the *dotted node* notation for the dictdiffer.diff patches.

    >>> create_dotted_node( ['foo', 'bar', 'baz'] )
    'foo.bar.baz'
    """
    if all(isinstance(part, str) for part in node):
        return '.'.join(node)
    return list(node)
''',
    ),
    Rewrite(
        "dictdiffer",
        _UTILS,
        "get_path",
        "the node named once, the conditional expression and its parentheses made an if/else",
        '''
def get_path(patch):
    """Return the path for a given dictdiffer.diff patch."""
    node = patch[1]
    if node != '':
        keys = node.split('.') if isinstance(node, str) else node
    else:
        keys = []
    if patch[0] != 'change':
        keys = keys + [patch[2][0][0]]
    return tuple(keys)
''',
    ),
    Rewrite(
        "dictdiffer",
        _UTILS,
        "is_super_path",
        "a generator expression with unpacked pairs in all() instead of map() and a lambda",
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
    return all(first == second or first is None for first, second in zip_longest(path1, path2))
''',
    ),
    Rewrite(
        "dictdiffer",
        _UTILS,
        "nested_hash",
        "the items to hash chosen by kind, then one hash(tuple(map(...))), None said explicitly",
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
            items = obj
        elif isinstance(obj, set):
            items = sorted(obj)
        elif isinstance(obj, dict):
            items = sorted(obj.items())
        else:
            return None
        return hash(tuple(map(nested_hash, items)))
''',
    ),
    Rewrite(
        "dictdiffer",
        _UTILS,
        "dot_lookup",
        "functools.reduce over the keys instead of a loop that rebinds its own variable",
        '''
import functools


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
    if isinstance(lookup, str):
        keys = lookup.split('.')
    elif isinstance(lookup, list):
        keys = lookup
    else:
        raise TypeError('lookup must be string or list')
    if parent:
        keys = keys[:-1]
    return functools.reduce(
        lambda value, key: value[int(key)] if isinstance(value, list) else value[key], keys, source
    )
''',
    ),
    Rewrite(
        "dictdiffer",
        _UTILS,
        "are_different",
        "early returns; the NaN case as `first_is_nan != second_is_nan`",
        '''
def are_different(first, second, tolerance, absolute_tolerance=None):
    """Check if 2 values are different.

    In case of numerical values, the tolerance is used to check if the values
    are different.
    In all other cases, the difference is straight forward.
    """
    if first == second:
        return False
    first_is_nan, second_is_nan = bool(first != first), bool(second != second)
    if first_is_nan or second_is_nan:
        # two NaN values are not different (issue #114); one NaN is
        return first_is_nan != second_is_nan
    if isinstance(first, num_types) and isinstance(second, num_types):
        return not math.isclose(first, second, rel_tol=tolerance or 0, abs_tol=absolute_tolerance or 0)
    return True
''',
    ),
    Rewrite(
        "dictdiffer",
        _INIT,
        "diff",
        "dotted() with a generator expression, list ranges computed once with min(), yield from",
        '''
def diff(first, second, node=None, ignore=None, path_limit=None, expand=False,
         tolerance=EPSILON, absolute_tolerance=None, dot_notation=True):
    """Compare two dictionary/list/set objects, and returns a diff result.

    Return an iterator with differences between two objects. The diff items
    represent addition/deletion/change and the item value is a *deep copy*
    from the corresponding source or destination objects.

    >>> from dictdiffer import diff
    >>> result = diff({'a': 'b'}, {'a': 'c'})
    >>> list(result)
    [('change', 'a', ('b', 'c'))]

    The keys can be skipped from difference calculation when they are included
    in ``ignore`` argument of type :class:`collections.Container`.

    >>> list(diff({'a': 1, 'b': 2}, {'a': 3, 'b': 4}, ignore=set(['a'])))
    [('change', 'b', (2, 4))]
    >>> class IgnoreCase(set):
    ...     def __contains__(self, key):
    ...         return set.__contains__(self, str(key).lower())
    >>> list(diff({'a': 1, 'b': 2}, {'A': 3, 'b': 4}, ignore=IgnoreCase('a')))
    [('change', 'b', (2, 4))]

    The difference calculation can be limitted to certain path:

    >>> list(diff({}, {'a': {'b': 'c'}}))
    [('add', '', [('a', {'b': 'c'})])]

    >>> from dictdiffer.utils import PathLimit
    >>> list(diff({}, {'a': {'b': 'c'}}, path_limit=PathLimit()))
    [('add', '', [('a', {})]), ('add', 'a', [('b', 'c')])]

    >>> from dictdiffer.utils import PathLimit
    >>> list(diff({}, {'a': {'b': 'c'}}, path_limit=PathLimit([('a',)])))
    [('add', '', [('a', {'b': 'c'})])]

    >>> from dictdiffer.utils import PathLimit
    >>> list(diff({}, {'a': {'b': 'c'}},
    ...           path_limit=PathLimit([('a', 'b')])))
    [('add', '', [('a', {})]), ('add', 'a', [('b', 'c')])]

    The patch can be expanded to small units e.g. when adding multiple values:

    >>> list(diff({'fruits': []}, {'fruits': ['apple', 'mango']}))
    [('add', 'fruits', [(0, 'apple'), (1, 'mango')])]

    >>> list(diff({'fruits': []}, {'fruits': ['apple', 'mango']}, expand=True))
    [('add', 'fruits', [(0, 'apple')]), ('add', 'fruits', [(1, 'mango')])]

    >>> list(diff({'a': {'x': 1}}, {'a': {'x': 2}}))
    [('change', 'a.x', (1, 2))]

    >>> list(diff({'a': {'x': 1}}, {'a': {'x': 2}},
    ... dot_notation=False))
    [('change', ['a', 'x'], (1, 2))]

    :param first: The original dictionary, ``list`` or ``set``.
    :param second: New dictionary, ``list`` or ``set``.
    :param node: Key for comparison that can be used in :func:`dot_lookup`.
    :param ignore: Set of keys that should not be checked.
    :param path_limit: List of path limit tuples or dictdiffer.utils.Pathlimit
                       object to limit the diff recursion depth.
    :param expand: Expand the patches.
    :param tolerance: Threshold to consider when comparing two float numbers.
    :param absolute_tolerance: Absolute threshold to consider when comparing
                               two float numbers.
    :param dot_notation: Boolean to toggle dot notation on and off.

    .. versionchanged:: 0.3
       Added *ignore* parameter.

    .. versionchanged:: 0.4
       Arguments ``first`` and ``second`` can now contain a ``set``.

    .. versionchanged:: 0.5
       Added *path_limit* parameter.
       Added *expand* paramter.
       Added *tolerance* parameter.

    .. versionchanged:: 0.7
       Diff items are deep copies from its corresponding objects.
       Argument *ignore* is always converted to a ``set``.

    .. versionchanged:: 0.8
        Added *dot_notation* parameter.
    """
    if path_limit is not None and not isinstance(path_limit, PathLimit):
        path_limit = PathLimit(path_limit)

    if isinstance(ignore, Iterable):
        def _process_ignore_value(value):
            if isinstance(value, int):
                return value,
            if isinstance(value, list):
                return tuple(value)
            if not dot_notation and isinstance(value, str):
                return value,
            return value

        ignore = type(ignore)(_process_ignore_value(value) for value in ignore)

    def dotted(node, default_type=list):
        """Return dotted notation."""
        if dot_notation and all(isinstance(key, str) and '.' not in key for key in node):
            return '.'.join(node)
        return default_type(node)

    def _diff_recursive(_first, _second, _node=None):
        _node = _node or []

        dotted_node = dotted(_node)

        differ = False

        if isinstance(_first, DICT_TYPES) and isinstance(_second, DICT_TYPES):
            # dictionaries are not hashable, we can't use sets
            def check(key):
                """Test if key in current node should be ignored."""
                return ignore is None or (
                    dotted(_node + [key], default_type=tuple) not in ignore and
                    tuple(_node + [key]) not in ignore
                )

            intersection = [k for k in _first if k in _second and check(k)]
            addition = [k for k in _second if k not in _first and check(k)]
            deletion = [k for k in _first if k not in _second and check(k)]

            differ = True

        elif isinstance(_first, LIST_TYPES) and isinstance(_second, LIST_TYPES):
            len_first = len(_first)
            len_second = len(_second)
            common = min(len_first, len_second)

            intersection = list(range(common))
            addition = list(range(common, len_second))
            deletion = list(range(len_first - 1, common - 1, -1))

            differ = True

        elif isinstance(_first, SET_TYPES) and isinstance(_second, SET_TYPES):
            # Deep copy is not necessary for hashable items.
            addition = _second - _first
            if len(addition):
                yield ADD, dotted_node, [(0, addition)]
            deletion = _first - _second
            if len(deletion):
                yield REMOVE, dotted_node, [(0, deletion)]

            return  # stop here for sets

        if not differ:
            # Compare string and numerical types and yield `change` flag.
            if are_different(_first, _second, tolerance, absolute_tolerance):
                yield CHANGE, dotted_node, (deepcopy(_first), deepcopy(_second))
            return

        # intersection, addition and deletion hold only hashable keys: no deep copies needed.
        for key in intersection:
            # a key whose path is a limit is a `change`; the others are compared in depth
            if path_limit and path_limit.path_is_limit(_node + [key]):
                yield CHANGE, _node + [key], (deepcopy(_first[key]), deepcopy(_second[key]))
            else:
                yield from _diff_recursive(_first[key], _second[key], _node=_node + [key])

        if addition:
            if path_limit:
                collect = []
                collect_recurred = []
                for key in addition:
                    if not isinstance(_second[key], SET_TYPES + LIST_TYPES + DICT_TYPES):
                        collect.append((key, deepcopy(_second[key])))
                    elif path_limit.path_is_limit(_node + [key]):
                        collect.append((key, deepcopy(_second[key])))
                    else:
                        collect.append((key, _second[key].__class__()))
                        recurred = _diff_recursive(
                            _second[key].__class__(),
                            _second[key],
                            _node=_node + [key],
                        )

                        collect_recurred.append(recurred)

                if expand:
                    for key, val in collect:
                        yield ADD, dotted_node, [(key, val)]
                else:
                    yield ADD, dotted_node, collect

                for recurred in collect_recurred:
                    yield from recurred
            elif expand:
                for key in addition:
                    yield ADD, dotted_node, [(key, deepcopy(_second[key]))]
            else:
                # for additions, a list of (key, value) pairs
                yield ADD, dotted_node, [(key, deepcopy(_second[key])) for key in addition]

        if deletion:
            if expand:
                for key in deletion:
                    yield REMOVE, dotted_node, [(key, deepcopy(_first[key]))]
            else:
                # for deletions, the list of removed keys and values
                yield REMOVE, dotted_node, [(key, deepcopy(_first[key])) for key in deletion]

    return _diff_recursive(first, second, node)
''',
    ),
    Rewrite(
        "dictdiffer",
        _INIT,
        "patch",
        "the last node chosen by a conditional expression; the dispatch table on one line",
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
    if not in_place:
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
        last_node = node.split('.')[-1] if isinstance(node, str) else node[-1]
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

    patchers = {REMOVE: remove, ADD: add, CHANGE: change}
    for action, node, changes in diff_result:
        patchers[action](node, changes)

    return destination
''',
    ),
    Rewrite(
        "dictdiffer",
        "dictdiffer/conflict.py",
        "Conflict.take_patch",
        "a guard clause: raise first when take is unset, then one conditional expression",
        '''
def take_patch(self):
    """Return the patch determined by the *take* attribute."""
    if not self.take:
        raise Exception('Take attribute not set.')
    return self.first_patch if self.take == 'f' else self.second_patch
''',
    ),
    Rewrite(
        "dictdiffer",
        "dictdiffer/conflict.py",
        "ConflictFinder._is_conflict",
        "one boolean expression instead of an if/elif ladder of `return True`",
        '''
def _is_conflict(self, patch1, patch2):
    """Decide on a conflict between two patches.

    The conditions are:
    1. The paths are identical
    2. On of the paths is the super path of the other

    :param patch1: First patch tuple
    :param patch2: First patch tuple
    """
    path1 = get_path(patch1)
    path2 = get_path(patch2)
    return (
        path1 == path2
        or (is_super_path(path1, path2) and patch1[0] == 'remove')
        or (is_super_path(path2, path1) and patch2[0] == 'remove')
    )
''',
    ),
    Rewrite(
        "dictdiffer",
        "dictdiffer/conflict.py",
        "ConflictFinder.find_conflicts",
        "the product's pairs unpacked with * into the check and the Conflict",
        '''
def find_conflicts(self, first_patches, second_patches):
    """Find all conflicts between two lists of patches.

    Iterates over the lists of patches, comparing each patch from list
    one to each patch from list two.

    :param first_patches: List of patch tuples
    :param second_patches: List of patch tuples
    """
    pairs = itertools.product(first_patches, second_patches)
    self.conflicts = [Conflict(*pair) for pair in pairs if self._is_conflict(*pair)]
    return self.conflicts
''',
    ),
    Rewrite(
        "dictdiffer",
        "dictdiffer/unify.py",
        "Unifier.unify",
        "the two nested ifs merged with `and`, the sorted list iterated directly",
        '''
def unify(self, first_patches, second_patches, conflicts):
    """Unify two lists of patches into one.

    Takes into account their appearance in the given list of conflicts.

    :param first_patches: list of dictdiffer.diff patches
    :param second_patches: list of dictdiffer.diff patches
    :param conflicts: list of Conflict objects
    """
    self.unified_patches = []
    self._build_index(conflicts)

    for patch in sorted(first_patches + second_patches, key=get_path):
        conflict = self._index.get(nested_hash(patch))
        # of a conflict's two patches, only the one its resolution took is applied
        if conflict and conflict.take_patch() != patch:
            continue
        self.unified_patches.append(patch)

    return self.unified_patches
''',
    ),
    Rewrite(
        "dictdiffer",
        "dictdiffer/resolve.py",
        "Resolver._find_conflicting_path",
        "min(..., key=len), which keeps the first path on a tie as the original does",
        '''
def _find_conflicting_path(self, conflict):
    """Return the shortest path commown to two patches."""
    return min(get_path(conflict.first_patch), get_path(conflict.second_patch), key=len)
''',
    ),
    Rewrite(
        "dictdiffer",
        "dictdiffer/resolve.py",
        "Resolver._consecutive_slices",
        "a descending range() instead of reversed(range(1, n + 1))",
        '''
def _consecutive_slices(self, iterable):
    """Build a list of consecutive slices of a given path.

    >>> r = Resolver(None, None)
    >>> list(r._consecutive_slices([1, 2, 3]))
    [[1, 2, 3], [1, 2], [1]]
    """
    return (iterable[:end] for end in range(len(iterable), 0, -1))
''',
    ),
)

REWRITES = JARACO_ITERTOOLS + DICTDIFFER
