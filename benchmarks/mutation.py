"""The mutation benchmark: does coderefine's checker ever verify a draft that behaves differently?

    python benchmarks/mutation.py --source all --json figures.json
    python benchmarks/mutation.py --source suite --only dedupe,mode --max-mutants 4
    python benchmarks/mutation.py --source funcy --kind plausible

For each function: a correct fast version (one that behaves exactly like the original), and
mutants of it, one small ast change each (comparison swapped, an integer or a range()/slice
bound off by one, a branch or an early return dropped, and/or swapped, a constant changed,
the operands of a non-commutative operator swapped), at most --max-mutants per function, chosen
deterministically and spread over the operators. A mutant counts only if it is really wrong:
the project's own tests fail with it in place, or the host's own differential check
(`mutation_oracle`, which shares no code with coderefine's) finds an input where it and the
original differ; the rest are equivalent and discarded. Every kept mutant then goes to
coderefine's checker, exactly as `coderefine optimize` calls it: verified correct is a HOLE
(the promise broken; it must be 0), and verified correct and faster is OFFERED. The correct
version itself is checked too: refusing it is a false refusal, unless the checker's counterexample,
replayed on the host (the call as the checker printed it), shows it wrong there too (RIGHTLY
REFUSED: it was no correct rewrite; the untyped suite's versions were written for the typed one).
A refused mutant that only the project's tests stopped (differential testing let it through:
`t-only`, TESTS ONLY) would be a hole in a project whose tests are weaker.

Beside the mutants (--kind mutants|plausible|both, both by default), a library function may have
plausible wrong drafts (benchmarks/plausible.py): hand-written "optimizations" as a model writes
them, each labelled with its class (a list for an iterator, one item too many read from an
iterator, a mapping read as its keys, a keyword option ignored, a fast path past a size
threshold, an iterator read twice, the caller's kind lost, a part of an argument shared with the
result or an argument left whole where the original changes it; for methods also self's state
changed or cached, an assumption about the items' order, an argument's kind assumed, another
exception), each wrong only on inputs of a kind the library's tests may never pass. They go
through the same filter as the mutants; one that neither the tests nor the differential check
shows wrong counts as wrong only by the witness written in its entry (a call, run on both
functions, whose two results differ), else it is dropped as equivalent. Each kept draft then goes
to the checker as a mutant does.

Sources:
- suite: benchmarks/slow_functions; the correct version is the known-good draft in fast.py;
- untyped: the same with every type hint stripped from both (inputs then come from the
  project's tests, the examples and what is widened from them);
- toolz, boltons, funcy, fnc, more_itertools, flatten_dict, ubelt, nested-lookup, dpath: real
  libraries (pinned below, see LIBRARIES), each downloaded as an sdist with its own tests. Their
  functions are untyped, several return iterators, lists or dicts, some have sentinel defaults;
  the correct version is the library's own source. There "verified" means correct (speed does not
  matter). Generator functions are refused by coderefine as ineligible: their mutants are listed,
  not checked.
- ordered-set: a library the same way, whose targets are methods, named `Class.method` as
  `coderefine optimize file.py::Class.method` names them: OrderedSet's, whose __init__ is typed (the
  checker builds the instance from it; the oracle's makers build it, and put a mutant in the class
  for the call); a version of a method is its def at the left margin, as a model writes it.
- dictdiffer: untyped helpers of nested dicts (paths as strings, lists, tuples or iterators, other
  mappings, NaN-aware comparison with two tolerances, an in_place option).
- inflection: a typed library of string functions; the oracle draws its inputs from the hints.
- semver: the members of its immutable Version (__slots__), of every kind coderefine checks: a
  classmethod, staticmethods, a property's getter and its setter (`Version.major.setter`, as
  coderefine names it), special methods (__getitem__, __hash__, __str__, __repr__) and methods; a
  version of a member is its def with its decorators, at the left margin. The oracle puts a
  version in the class as the descriptor its decorators make, calls a property through its
  instance, and compares instances by their slots (Version's __eq__ leaves the build out).
- isodate: untyped helpers the library calls with Decimals (max_days_in_month, fquotmod: a floor
  divmod with bounds, which Decimal's own divmod would truncate) and its Duration's special
  methods (__neg__, __eq__ where a year is twelve months, __hash__, __str__).
- parse: one untyped module; its converters (int_convert.__call__, percentage) called with the text a
  field matched and the re.Match of the parser's own expression, a tzinfo of a fixed offset
  (FixedTzOffset's __eq__, utcoffset, __repr__), the format-spec reader (extract_format, which
  returns its locals()) and the parser's methods given a match (evaluate_result, _regex_replace)
  or its named fields (_expand_named_fields).
- intervaltree: the members of an untyped Interval (a named tuple's subclass: half-open bounds, null
  intervals, __eq__ with the data, __cmp__ with points and unorderable data, __repr__) and of its
  IntervalTree (queries returning sets: at, overlap, envelop, overlaps_range; the mutators add,
  remove and discard, which return None and keep a table of boundaries; __len__).
- library: the sixteen libraries in that order; all: the suite, untyped and the sixteen libraries.

Nothing in the repository is changed: every run works on copies. Before funcy and fnc, `all` took
about 20 minutes on 2 cores (the suite 4, untyped 5, toolz 7, boltons 4; each library's sdist is
downloaded with pip each run).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT), str(ROOT / "slow_functions")]

import mutation_oracle as oracle  # noqa: E402
from fast import EXAMPLES, FAST  # noqa: E402
from optimize_suite import project_copy  # noqa: E402
from plausible import DRAFTS, Witness  # noqa: E402

from coderefine.code.baseline_cache import BaselineCache  # noqa: E402
from coderefine.code.check import Baseline, Verdict, VerifyOptions, verify  # noqa: E402
from coderefine.code.resources import limits_for  # noqa: E402
from coderefine.code.source import SourceFile  # noqa: E402
from coderefine.code.target import Target  # noqa: E402
from coderefine.errors import CoderefineError, EnvironmentProblem, UsageError  # noqa: E402
from coderefine.sandbox.base import Sandbox  # noqa: E402
from coderefine.sandbox.image import default_image  # noqa: E402
from coderefine.sandbox.open import open_sandbox  # noqa: E402
from coderefine.settings import Settings  # noqa: E402


@dataclass(frozen=True)
class Library:
    """A pinned library whose sdist holds its own tests."""

    name: str
    version: str
    tests: tuple[str, ...]  # its own tests, as pytest arguments: the kill filter
    tests_dir: str  # where the sdist keeps them; an sdist without them is no use here
    functions: tuple[tuple[str, str], ...]  # (file, function)
    # (file, old, new): edits the tests need to run under today's pytest, the library left alone
    patches: tuple[tuple[str, str, str], ...] = ()
    source_root: str = ""  # the folder its package is imported from ("src" in a src layout)
    # (name, version, file): a pure-Python module it or its tests import, taken from that pinned
    # sdist and put at the project's root (where pytest's rootdir insertion finds it, in the box too)
    test_modules: tuple[tuple[str, str, str], ...] = ()
    # whether the sdist's PKG-INFO is put under source_root as the metadata of an installed copy:
    # for a package that reads its own version with importlib.metadata when it is imported (the
    # sdist is unpacked, never installed, here and in the box)
    metadata: bool = False


# toolz: untyped functions with at least 3 mutation sites: returning iterators
# (merge_sorted, sliding_window, partition, pluck), with sentinel defaults (get, reduceby, pluck:
# no_default; partition: no_pad), a branch chosen by size (dissoc: keys against 0.6 x the dict's
# length; toolz has no branch that only long inputs reach), and three generator functions,
# which coderefine refuses as ineligible.
LIBRARY_FUNCTIONS = (
    ("toolz/itertoolz.py", "merge_sorted"),
    ("toolz/itertoolz.py", "isdistinct"),
    ("toolz/itertoolz.py", "tail"),
    ("toolz/itertoolz.py", "nth"),
    ("toolz/itertoolz.py", "get"),
    ("toolz/itertoolz.py", "reduceby"),
    ("toolz/itertoolz.py", "sliding_window"),
    ("toolz/itertoolz.py", "partition"),
    ("toolz/itertoolz.py", "pluck"),
    ("toolz/itertoolz.py", "topk"),
    ("toolz/dicttoolz.py", "dissoc"),
    ("toolz/dicttoolz.py", "update_in"),
    ("toolz/itertoolz.py", "accumulate"),
    ("toolz/itertoolz.py", "partition_all"),
    ("toolz/itertoolz.py", "unique"),
)
# boltons: untyped functions, none a generator, returning lists (chunked, redundant, soft_sorted,
# parse_int_list), an iterator (windowed_iter: zip or zip_longest), a dict (bucketize), a string
# (ordinalize, format_int_list); sentinel defaults (get_path, windowed_iter: _UNSET); key
# arguments that may be a callable, an attribute name or a list (bucketize, redundant).
BOLTONS_FUNCTIONS = (
    ("boltons/iterutils.py", "chunked"),
    ("boltons/iterutils.py", "windowed_iter"),
    ("boltons/iterutils.py", "bucketize"),
    ("boltons/iterutils.py", "redundant"),
    ("boltons/iterutils.py", "one"),
    ("boltons/iterutils.py", "get_path"),
    ("boltons/iterutils.py", "soft_sorted"),
    ("boltons/strutils.py", "ordinalize"),
    ("boltons/strutils.py", "format_int_list"),
    ("boltons/strutils.py", "parse_int_list"),
)
# funcy: untyped functions, none a generator, over any kind of collection and keeping the
# caller's kind (join: a str, dict, defaultdict, set, tuple, list or iterator in, the same kind
# out), returning iterators (reductions, where, keep: itertools objects), lists (lsplit) or dicts
# (join_with, update_in, del_in); sentinel defaults (is_distinct, one, reductions, keep: EMPTY)
# and keyword options (join_with: strict; update_in: default; where: **cond); arguments that
# may be a callable or a shorthand (funcy's make_func: a regex, an index, a dict, a set); a
# branch chosen by length (join_with: one dict; update_in, del_in: the path's last key);
# iterator arguments read partly (nth, one, last).
FUNCY_FUNCTIONS = (
    ("funcy/colls.py", "join"),
    ("funcy/colls.py", "join_with"),
    ("funcy/colls.py", "is_distinct"),
    ("funcy/colls.py", "one"),
    ("funcy/colls.py", "update_in"),
    ("funcy/colls.py", "del_in"),
    ("funcy/colls.py", "where"),
    ("funcy/seqs.py", "nth"),
    ("funcy/seqs.py", "last"),
    ("funcy/seqs.py", "lsplit"),
    ("funcy/seqs.py", "reductions"),
    ("funcy/seqs.py", "keep"),
)
# fnc (a src layout): untyped functions, none a generator, whose iteratee may be a callable,
# None, a dict, a set, a tuple or a path (fnc.iteratee); paths given as a dotted string with
# [n] items or as a list (aspath, get, has); mappings and sequences read alike (iterate: items(),
# enumerate() or keys(); pick, omit), lookups that try the key as an int too (get, has, pick); a
# sentinel default that changes what a missing key does (get: UNSET raises, as has uses it);
# results that are an items view or an iterator (iterate), lists (partition, aspath), dicts
# (pick, omit, groupall: nested), an index (findindex, findlastindex: -1 when none) and an
# item of an iterator read only up to it (find). omit and find have one mutation site each:
# they are here for the drafts they invite (a key set, a lookahead).
FNC_FUNCTIONS = (
    ("src/fnc/helpers.py", "iterate"),
    ("src/fnc/mappings.py", "get"),
    ("src/fnc/mappings.py", "has"),
    ("src/fnc/mappings.py", "pick"),
    ("src/fnc/mappings.py", "omit"),
    ("src/fnc/sequences.py", "find"),
    ("src/fnc/sequences.py", "findindex"),
    ("src/fnc/sequences.py", "findlastindex"),
    ("src/fnc/sequences.py", "groupall"),
    ("src/fnc/sequences.py", "partition"),
    ("src/fnc/utilities.py", "aspath"),
    ("src/fnc/utilities.py", "conforms"),
)
# more-itertools (recipes.py and more.py): untyped functions (their hints are in .pyi stubs), none
# a generator, over any iterable (lists, tuples, strings, ranges, dicts read as their keys, sets,
# one-shot iterators); iterator arguments read only partly (first: one item; one, only: two;
# nth_or_last: n + 1; exactly_n: up to the (n + 1)-th match; all_equal, all_unique: up to the
# first difference or repeat), sentinel defaults (first, last, nth_or_last, minmax: _marker),
# keyword options (one: too_short, too_long as classes or instances; only: default, too_long;
# exactly_n: predicate; map_reduce: valuefunc, reducefunc; minmax: key, default; all_equal,
# all_unique: key; is_sorted: key, reverse, strict), a branch on the argument's kind (last: a
# reversible one is read from its end), results that are a defaultdict whose default_factory is
# None (map_reduce), a tuple of two lazy iterators sharing one input (partition: a nested
# generator), a pair (minmax: a pairwise loop over zip_longest), lists of lists (unique_to_each)
# and booleans (is_sorted over tee(); all_unique: hashable and unhashable items alike).
# nth_or_last and is_sorted have two mutation sites each: they are here for the drafts they
# invite (a lookahead, a fast path for lists).
MORE_ITERTOOLS_FUNCTIONS = (
    ("more_itertools/more.py", "first"),
    ("more_itertools/more.py", "last"),
    ("more_itertools/more.py", "nth_or_last"),
    ("more_itertools/more.py", "one"),
    ("more_itertools/more.py", "only"),
    ("more_itertools/more.py", "exactly_n"),
    ("more_itertools/more.py", "map_reduce"),
    ("more_itertools/recipes.py", "partition"),
    ("more_itertools/more.py", "minmax"),
    ("more_itertools/more.py", "unique_to_each"),
    ("more_itertools/recipes.py", "all_equal"),
    ("more_itertools/more.py", "is_sorted"),
    ("more_itertools/more.py", "all_unique"),
)
# flatten-dict (a src layout; flatten_dict.py, reducers.py, splitters.py): untyped functions, none
# a generator, over nested mappings (flatten: any Mapping, read with items(), and the types of
# enumerate_types, read with enumerate(): lists, tuples, one-shot iterators) with keyword options
# (flatten: reducer by name or as a function of two or three arguments, inverse,
# max_flatten_depth, enumerate_types as any iterable of types, keep_empty_types; unflatten:
# splitter, inverse), results that are plain dicts keyed by tuples or strings (flatten, unflatten:
# a ValueError on a duplicated key) or tuples (the splitters), a function that changes its
# argument in place and returns None (nested_set_dict, recursive, one level per key), and the
# small key functions (the reducers: None as the first key, path_reducer through os.path.join;
# the splitters: str.split() made a tuple). coderefine refuses nested_set_dict (it returns no
# value): its mutants and drafts are listed, not checked. tuple_splitter and path_splitter (no
# mutation site, no draft), make_reducer and make_splitter (they return a closure) are left out.
FLATTEN_DICT_FUNCTIONS = (
    ("src/flatten_dict/flatten_dict.py", "flatten"),
    ("src/flatten_dict/flatten_dict.py", "unflatten"),
    ("src/flatten_dict/flatten_dict.py", "nested_set_dict"),
    ("src/flatten_dict/reducers.py", "tuple_reducer"),
    ("src/flatten_dict/reducers.py", "path_reducer"),
    ("src/flatten_dict/reducers.py", "dot_reducer"),
    ("src/flatten_dict/reducers.py", "underscore_reducer"),
    ("src/flatten_dict/splitters.py", "dot_splitter"),
    ("src/flatten_dict/splitters.py", "underscore_splitter"),
)
# ubelt (util_list.py, util_dict.py; its hints are in .pyi stubs beside them): untyped functions,
# none a generator, over any iterable (lists, tuples, strings, ranges, sets, one-shot iterators)
# and mappings (argsort, argmax: a dict read by its items(), its keys as the indices; dict_hist: a
# mapping's values taken as counts by Counter.update(); invert_dict), with keyword options
# (iter_window: size, step, wrap; allsame: eq; argsort: key, reverse; argmax, unique_flags,
# find_duplicates: key; find_duplicates: k; dzip: cls; dict_hist: weights, ordered, labels;
# invert_dict: unique_vals, cls) and a sentinel default (peek: NoParam raises StopIteration);
# results that are iterators (iter_window: islice over zip of tee() copies, cycled with wrap),
# lists (argsort, unique_flags, boolmask), dicts of the caller's kind (dzip: cls; invert_dict,
# dict_hist: OrderedDict or dict), a defaultdict (group_items), booleans (allsame: all() up to the
# first difference) and single items (argmax, peek: one item read from an iterator); iterator
# arguments read partly (peek, allsame) or copied to be read twice (boolmask: list() before max()).
UBELT_FUNCTIONS = (
    ("ubelt/util_list.py", "iter_window"),
    ("ubelt/util_list.py", "allsame"),
    ("ubelt/util_list.py", "argsort"),
    ("ubelt/util_list.py", "argmax"),
    ("ubelt/util_list.py", "peek"),
    ("ubelt/util_list.py", "unique_flags"),
    ("ubelt/util_list.py", "boolmask"),
    ("ubelt/util_dict.py", "dzip"),
    ("ubelt/util_dict.py", "group_items"),
    ("ubelt/util_dict.py", "dict_hist"),
    ("ubelt/util_dict.py", "find_duplicates"),
    ("ubelt/util_dict.py", "invert_dict"),
)
# nested-lookup (nested_lookup.py, lookup_api.py): untyped functions, none a generator, over nested
# documents of dicts and lists (a walk that goes into what isinstance() calls a dict or a list and
# nothing else, but for the counting functions, which go into anything with items() in a list),
# with keyword options (nested_lookup: wild, a case-insensitive substring of str() of each key,
# and with_keys; nested_delete, nested_update, nested_alter: in_place, a deep copy first without
# it; nested_update: treat_as_element; nested_alter: function_parameters unpacked at each call,
# conversion_function, wild_alter, a key or a list of keys, no callback a warning). Results: lists
# in the document's order (nested_lookup: a recursive generator listed; get_all_keys: a closure's
# list), a defaultdict(list) (with_keys), counts (get_occurrence_of_key: a key holding None is not
# counted; get_occurrence_of_value: one among a dict's values found with `in`, one in a list with
# ==), a dict of the matching dicts gathered in a module-level list (get_occurrences_and_values,
# over any iterable of documents: a TypeError where a value is only in a list of scalars) and the
# document changed or a copy of it (nested_update: a list of values consumed by pop(0), the
# caller's own list). The private helpers (_nested_lookup: a generator; _recursion and the rest,
# which the functions above call) are left out.
NESTED_LOOKUP_FUNCTIONS = (
    ("nested_lookup/nested_lookup.py", "nested_lookup"),
    ("nested_lookup/nested_lookup.py", "get_all_keys"),
    ("nested_lookup/nested_lookup.py", "get_occurrence_of_key"),
    ("nested_lookup/nested_lookup.py", "get_occurrence_of_value"),
    ("nested_lookup/nested_lookup.py", "get_occurrences_and_values"),
    ("nested_lookup/lookup_api.py", "nested_delete"),
    ("nested_lookup/lookup_api.py", "nested_update"),
    ("nested_lookup/lookup_api.py", "nested_alter"),
)
# dpath (dpath/segments.py): untyped functions over nested documents of mappings and sequences,
# none typed in its parameters (make_walkable's return is hinted): make_walkable (anything with
# items() read by it, anything else sized zipped with ListIndex positions, ints that also equal
# their negative index, or else no pairs; a lazy iterator each way), leafy (leaf()'s isinstance()
# of six kinds, or empty by len(); False where len() raises), walk (a generator: a node's pairs
# first, then each child's walk; paths are tuples from the keyword option location; an empty key
# an InvalidKeyName unless dpath.options.ALLOW_EMPTY_STRING_KEYS, a flag these functions read and
# never set, at its default throughout here), expand (a generator of the path's prefixes, each a
# slice of it), has (get() under a bare except: positions as ints or decimal strings, a path of
# any iterable read only up to its first missing key), types (a tuple of (segment, type) pairs,
# one get() from the top per prefix), leaves (a filter() over walk) and fold and foldm (a callback
# on each of walk's pairs with the accumulator, which is returned, stopped by an exact False;
# foldm's pairs a tuple taken first, so that the callback may change the document). The rest are
# hinted (get, match, set, extend, view, dpath/__init__.py's) or have no mutation site (leaf,
# int_str); walk and expand are generators, refused by coderefine: their mutants and drafts are
# listed, not checked.
DPATH_FUNCTIONS = (
    ("dpath/segments.py", "make_walkable"),
    ("dpath/segments.py", "leafy"),
    ("dpath/segments.py", "walk"),
    ("dpath/segments.py", "has"),
    ("dpath/segments.py", "expand"),
    ("dpath/segments.py", "types"),
    ("dpath/segments.py", "leaves"),
    ("dpath/segments.py", "fold"),
    ("dpath/segments.py", "foldm"),
)
# ordered-set (one module, ordered_set/__init__.py; typed): methods of OrderedSet, whose
# __init__(initial: OrderedSetInitializer[T] = None) is fully hinted, over the list and the dict
# (item -> position) it holds; methods that change the instance and return a value (add: the
# item's position; update: the last item's; pop: the item, at any position, the later items'
# positions in the map left as they were), that return a new OrderedSet of the instance's own
# class (copy, union, intersection, difference, symmetric_difference: a subclass stays one) or a
# list of positions (index: any iterable but a str or a tuple is a list of keys, looked up
# recursively), and booleans (issubset, issuperset: a length check first, then `in` on the other
# collection); arguments that are any set-like or sequence (a set, a list, a dict read as its
# keys, a string as its letters, a one-shot iterator, which symmetric_difference reads twice: its
# items are gone by the second). The aliases (append, get_loc, get_indexer) and the special
# methods (refused by coderefine) are left out; copy has no mutation site: it is here for the
# drafts it invites (the lists shared, the subclass lost).
ORDERED_SET_FUNCTIONS = (
    ("ordered_set/__init__.py", "OrderedSet.add"),
    ("ordered_set/__init__.py", "OrderedSet.update"),
    ("ordered_set/__init__.py", "OrderedSet.index"),
    ("ordered_set/__init__.py", "OrderedSet.pop"),
    ("ordered_set/__init__.py", "OrderedSet.copy"),
    ("ordered_set/__init__.py", "OrderedSet.union"),
    ("ordered_set/__init__.py", "OrderedSet.intersection"),
    ("ordered_set/__init__.py", "OrderedSet.difference"),
    ("ordered_set/__init__.py", "OrderedSet.issubset"),
    ("ordered_set/__init__.py", "OrderedSet.issuperset"),
    ("ordered_set/__init__.py", "OrderedSet.symmetric_difference"),
)
# dictdiffer (untyped): paths as dotted strings, lists or tuples (create_dotted_node reads an
# iterator twice), nested dicts and other mappings (dot_lookup), NaN-aware comparison with a
# relative and an absolute tolerance (are_different), and patch/revert's in_place option
DICTDIFFER_FUNCTIONS = (
    ("dictdiffer/utils.py", "create_dotted_node"),
    ("dictdiffer/utils.py", "get_path"),
    ("dictdiffer/utils.py", "is_super_path"),
    ("dictdiffer/utils.py", "nested_hash"),
    ("dictdiffer/utils.py", "dot_lookup"),
    ("dictdiffer/utils.py", "are_different"),
    ("dictdiffer/__init__.py", "patch"),
    ("dictdiffer/__init__.py", "revert"),
)
# semver (a src layout; src/semver/version.py, typed): the methods of its immutable Version
# (__slots__, no __dict__), of every kind coderefine checks: a classmethod (_nat_cmp: prerelease
# identifiers compared, digits by value, leading zeros ignored; parse: a regex with re.ASCII, bytes
# decoded, optional minor and patch), staticmethods (_increment_prerelease: the last dot-separated
# number raised, else ".0"; _increment_string: the last run of digits raised, its width kept), a
# property's getter (prerelease) and setter (major.setter: it refuses, the version is read-only),
# special methods (__getitem__: an index or a slice, negative ones refused, a missing part an
# IndexError, one part alone; __hash__: the build left out, as __eq__ leaves it; __str__, __repr__:
# the subclass's name), and methods returning a new Version of self's own class (bump_prerelease,
# bump_build, next_version, finalize_version) or a comparison (compare: other as a Version, a str,
# bytes, a dict, a tuple or a list; match: an operator and a version), and comparison operators
# (__eq__, __lt__, __ge__) behind its own decorator @_comparator (a type check that keeps the
# method as __wrapped__). Version has no mutator, and no private (mangled) name.
# parse (one module at the sdist's top, untyped): int_convert.__call__ (a sign, a base given or read
# from a 0b/0o/0x prefix, every character outside the base's digits dropped), percentage, the
# members of FixedTzOffset (a tzinfo: __eq__ with NotImplemented for other kinds, utcoffset whose dt
# is a datetime or None, __repr__ with the subclass's name), extract_format (a format spec's parts,
# returned as its locals()), and Parser's methods given a re.Match of its own compiled expression
# (evaluate_result: the fields converted, spans, dotted and indexed names) or of its REGEX_SAFETY
# (_regex_replace), and _expand_named_fields ('a[b][c]' names nested into dicts)
PARSE_FUNCTIONS = tuple(
    ("parse.py", name)
    for name in (
        "int_convert.__call__",
        "percentage",
        "FixedTzOffset.__eq__",
        "FixedTzOffset.utcoffset",
        "FixedTzOffset.__repr__",
        "Parser.evaluate_result",
        "Parser._regex_replace",
        "extract_format",
        "Parser._expand_named_fields",
    )
)
# intervaltree (untyped; intervaltree/interval.py, intervaltree/intervaltree.py): the members of
# Interval, a named tuple's subclass built by its own __new__ (begin, end, data), whose ranges are
# half-open (overlaps: a point, a range or an Interval, a null range overlapping what holds its
# point; contains_point: begin <= p < end), null when begin >= end (_raise_if_null, which returns
# None or raises; length: 0 then), equal with their data (__eq__; its hash leaves the data out),
# ordered by __cmp__ (other an Interval or a point; data of two kinds that do not order compared by
# their types' names), and written with str() of a Number, repr() of anything else (__repr__); and
# of IntervalTree (its intervals in a set, a tree of Nodes beside it and a SortedDict counting each
# boundary): queries that return a new set (at: a point; overlap, envelop: a range or an Interval,
# an empty set for a null range or an empty tree), overlaps_range (a bool, through the boundaries
# inside the range), the mutators (add: no null interval, nothing for one there; remove: a
# ValueError for one missing; discard: nothing), which return None and change self's three parts,
# and __len__ (no mutation site: here for the drafts it invites).
INTERVALTREE_FUNCTIONS = (
    *(
        ("intervaltree/interval.py", f"Interval.{name}")
        for name in ("overlaps", "contains_point", "__eq__", "__cmp__", "_raise_if_null", "length", "__repr__")
    ),
    *(
        ("intervaltree/intervaltree.py", f"IntervalTree.{name}")
        for name in ("overlaps_range", "at", "envelop", "overlap", "add", "remove", "discard", "__len__")
    ),
)
# cachetools (untyped; src/cachetools/__init__.py): the members of Cache, a MutableMapping that
# keeps its items in a private dict (`self.__data`, mangled) with their sizes and its current
# size, and of its subclasses that keep an order beside it (FIFOCache, LRUCache: an OrderedDict;
# LFUCache: a ring of links by use count, each with its keys): __copy__ (the data and the order
# copied, the rest shared), __setitem__ (a ValueError for a value too large, the oldest or least
# used items evicted first), __delitem__, get, pop and setdefault (a marker for a missing default),
# popitem (KeyError when empty), and LFUCache's __setstate__ (unpickling: the ring linked again in
# the order of the counts).
CACHETOOLS_FUNCTIONS = tuple(
    ("src/cachetools/__init__.py", name)
    for name in (
        *(f"{kind}.__copy__" for kind in ("Cache", "FIFOCache", "LRUCache", "LFUCache")),
        "Cache.__setitem__",
        "LRUCache.__setitem__",
        "FIFOCache.__setitem__",
        "Cache.__delitem__",
        "Cache.get",
        "Cache.pop",
        "Cache.setdefault",
        "LRUCache.popitem",
        "FIFOCache.popitem",
        "LFUCache.popitem",
        "LFUCache.__setstate__",
    )
)
# sqlparse (untyped; sqlparse/): the grouping engine, functions that regroup a statement's tokens in
# place and return None (a mutator's result is what it did to its argument), matching tokens by their
# kinds, objects of another module compared with `is`; and methods of the token tree, special ones
# among them: a token's match against a kind and values (keywords without regard to case, or as
# patterns), its ancestry, the next token by index, the grouping of a run of tokens, a statement's
# type (past comments and a CTE), a CASE's branches, and a group's items by index or slice.
SQLPARSE_FUNCTIONS = (
    *(
        ("sqlparse/engine/grouping.py", name)
        for name in (
            "group_typecasts",
            "group_period",
            "group_as",
            "group_comparison",
            "group_identifier",
            "group_operator",
            "group_identifier_list",
            "group_where",
            "group_aliased",
            "group_functions",
            "group_order",
            "group_values",
            "group_comments",
        )
    ),
    *(
        ("sqlparse/sql.py", name)
        for name in (
            "Token.match",
            "Token.within",
            "TokenList.token_next",
            "TokenList.group_tokens",
            "Statement.get_type",
            "Case.get_cases",
            "TokenList.__getitem__",
        )
    ),
)
SEMVER_FUNCTIONS = tuple(
    ("src/semver/version.py", f"Version.{name}")
    for name in (
        "_nat_cmp",
        "_increment_prerelease",
        "_increment_string",
        "prerelease",
        "major.setter",
        "compare",
        "match",
        "bump_prerelease",
        "bump_build",
        "next_version",
        "finalize_version",
        "parse",
        "__getitem__",
        "__hash__",
        "__str__",
        "__repr__",
        "__eq__",
        "__lt__",
        "__ge__",
    )
)
# boltons' conftest.py takes the `path` argument, which pytest 9 no longer passes; it only skips
# test files named for another Python major version, so `collection_path` keeps its meaning.
_BOLTONS_CONFTEST = (
    (
        "tests/conftest.py",
        "def pytest_ignore_collect(path, config):",
        "def pytest_ignore_collect(collection_path, config):",
    ),
    ("tests/conftest.py", "filename = path.basename", "filename = collection_path.name"),
)
# fnc's setup.cfg asks pytest for pytest-cov's options (not installed here, nor in the box) and for
# report files under build/; its tests import fnc as installed, from src/.
_FNC_SETUP = (
    (
        "setup.cfg",
        "addopts = \n\t--verbose\n\t--doctest-modules\n\t--no-cov-on-fail\n\t--cov-fail-under=100\n"
        "\t--cov-report=term-missing\n\t--cov-report=xml:build/coverage/coverage.xml\n"
        "\t--cov-report=html:build/coverage\n\t--junitxml=build/testresults/junit.xml\n",
        "pythonpath = src\naddopts = \n\t--verbose\n\t--doctest-modules\n",
    ),
)
# ubelt's pyproject.toml has pytest run its docstrings through xdoctest's plugin (not installed
# here, nor in the box): its tests/ are plain pytest tests, so only those options are dropped.
_UBELT_PYPROJECT = (
    (
        "pyproject.toml",
        'addopts = "-p no:doctest --xdoctest --xdoctest-style=google --ignore-glob=setup.py',
        'addopts = "-p no:doctest --ignore-glob=setup.py',
    ),
)
# five of dpath's test files take nose2's `helper` (a unittest.TestCase, for assertRaises) from
# nose2, which is not installed here, nor in the box: a TestCase of unittest's stands in. Its
# hypothesis profile is made derandomized, so that the kill filter (and the box's runs of the tests)
# draw the same examples on every run.
_DPATH_TESTS = (
    *(
        (
            f"tests/test_{name}.py",
            "from nose2.tools.such import helper",
            "from unittest import TestCase as _Helper\nhelper = _Helper()",
        )
        for name in ("delete", "get_values", "merge", "path_paths", "types")
    ),
    (
        "tests/test_segments.py",
        'settings.register_profile("default", suppress_health_check=(HealthCheck.too_slow,))',
        'settings.register_profile("default", suppress_health_check=(HealthCheck.too_slow,), derandomize=True)',
    ),
)
LIBRARIES = {
    "toolz": Library("toolz", "1.2.0", ("toolz",), "toolz/tests", LIBRARY_FUNCTIONS),
    "boltons": Library(
        "boltons",
        "25.0.0",
        ("tests/test_iterutils.py", "tests/test_strutils.py"),
        "tests",
        BOLTONS_FUNCTIONS,
        _BOLTONS_CONFTEST,
    ),
    # funcy's tests write their predicates with whatever's `_` (`_ > 1`): its one module is put beside them
    "funcy": Library(
        "funcy",
        "2.1",
        ("tests/test_colls.py", "tests/test_seqs.py"),
        "tests",
        FUNCY_FUNCTIONS,
        test_modules=(("whatever", "0.7", "whatever.py"),),
    ),
    "fnc": Library(
        "fnc",
        "0.5.3",
        ("tests/test_sequences.py", "tests/test_mappings.py", "tests/test_utilities.py"),
        "tests",
        FNC_FUNCTIONS,
        _FNC_SETUP,
        source_root="src",
    ),
    # its tests are unittest classes, which pytest runs as they are; the prime-number tests (6 of
    # their 14 seconds, none of them calling a function above) are left out of the kill filter
    "more_itertools": Library(
        "more_itertools",
        "11.2.1",
        (
            "tests/test_more.py",
            "tests/test_recipes.py",
            "--deselect=tests/test_recipes.py::PrimeFunctionTests::test_primes",
        ),
        "tests",
        MORE_ITERTOOLS_FUNCTIONS,
    ),
    # its one test file sits in the package, in a folder with no __init__.py, and imports
    # flatten_dict from src/ (the box puts src/ on the path, pytest here is told to); the package's
    # __init__ reads its version from the installed metadata, which `metadata` gives it
    "flatten_dict": Library(
        "flatten_dict",
        "0.5.0",
        ("-o", "pythonpath=src", "src/flatten_dict/tests/flatten_dict_test.py"),
        "src/flatten_dict/tests",
        FLATTEN_DICT_FUNCTIONS,
        source_root="src",
        metadata=True,
    ),
    # 1.4.0, the last release whose util_list.py and util_dict.py are untyped (1.4.1 writes hints
    # into them); the kill filter is the tests of those two modules (allsame is also called by
    # test_oset.py and test_download.py, which the box runs with the rest); the docstring examples,
    # xdoctest's, are not run as tests, coderefine reads them as examples
    "ubelt": Library(
        "ubelt",
        "1.4.0",
        ("tests/test_list.py", "tests/test_dict.py"),
        "tests",
        UBELT_FUNCTIONS,
        _UBELT_PYPROJECT,
    ),
    # its tests sit in the package (nested_lookup/tests, importing it relatively); the package
    # imports six, which the box has not: six's one module is put at the root
    "nested-lookup": Library(
        "nested-lookup",
        "0.2.25",
        ("nested_lookup/tests",),
        "nested_lookup/tests",
        NESTED_LOOKUP_FUNCTIONS,
        test_modules=(("six", "1.17.0", "six.py"),),
    ),
    # its tests are in tests/ (unittest classes and plain functions, hypothesis's in test_segments.py)
    "dpath": Library("dpath", "2.2.0", ("tests",), "tests", DPATH_FUNCTIONS, _DPATH_TESTS),
    # its pytest.ini runs the docstrings of the module and README.md as doctests: both are in the
    # kill filter beside test/ (the box runs the project's tests as pytest finds them)
    "ordered-set": Library(
        "ordered-set",
        "4.1.0",
        ("test", "ordered_set", "README.md"),
        "test",
        ORDERED_SET_FUNCTIONS,
    ),
    # untyped helpers of nested dicts; its pytest.ini asks for plugins (isort, pydocstyle, cov) the
    # box has not: its addopts keep the doctests alone
    "dictdiffer": Library(
        "dictdiffer",
        "0.9.0",
        ("tests", "dictdiffer"),
        "tests",
        DICTDIFFER_FUNCTIONS,
        (
            (
                "pytest.ini",
                'addopts = --isort --pydocstyle --pycodestyle --doctest-glob="*.rst" --doctest-modules '
                "--cov=dictdiffer --cov-report=term-missing",
                "addopts = --doctest-modules",
            ),
        ),
    ),
    # string functions of one module, typed, with regular expressions and a table; its tests are
    # one file at the sdist's top (parametrized over hundreds of words)
    "inflection": Library(
        "inflection",
        "0.5.1",
        ("test_inflection.py",),
        ".",
        tuple(
            ("inflection/__init__.py", name)
            for name in ("ordinal", "ordinalize", "humanize", "parameterize", "dasherize", "underscore", "titleize")
        ),
    ),
    # a src layout, untyped: a Duration of years and months beside a timedelta (special methods:
    # __neg__, __eq__, __hash__, __str__) and its helpers, which the library calls with Decimals
    "isodate": Library(
        "isodate",
        "0.7.2",
        ("tests",),
        "tests",
        tuple(
            ("src/isodate/duration.py", name)
            for name in (
                "max_days_in_month",
                "fquotmod",
                "Duration.__neg__",
                "Duration.__eq__",
                "Duration.__hash__",
                "Duration.__str__",
            )
        ),
        # its tests import the package as installed: from src/ on pytest's path
        (("pyproject.toml", 'testpaths = ["tests"]\n', 'testpaths = ["tests"]\npythonpath = ["src"]\n'),),
        source_root="src",
    ),
    # its .pytest.ini asks for pytest-cov's options (not installed here, nor in the box) and runs the
    # docstrings of src/ and the .rst files of docs/ as doctests: both are in the kill filter beside
    # tests/ (whose conftest imports packaging)
    "semver": Library(
        "semver",
        "3.1.2",
        ("tests", "docs", "src"),
        "tests",
        SEMVER_FUNCTIONS,
        (
            (
                ".pytest.ini",
                "    --no-cov-on-fail\n    --cov=semver\n    --cov-report=term-missing\n",
                "",
            ),
        ),
        source_root="src",
    ),
    # its tests (tests/, 97 of them) import the module from the sdist's root, where pytest's rootdir is
    "parse": Library("parse", "1.20.2", ("tests",), "tests", PARSE_FUNCTIONS),
    # the kill filter: the tests of the two classes (test/interval_methods; the query, insert, delete,
    # setlike and init tests of test/intervaltree_methods) and the doctests of the package and of
    # README.md, which its pyproject.toml has pytest run: about 5 seconds, half of them importing
    # test/data (a 5 MB table for issue 4 among its modules). test/optimality (15 seconds: its matrix
    # of trees is built as the module is imported, which --deselect would not spare), test/issues and
    # the copy, debug and restructure tests are left out; the box runs them all. Its one dependency,
    # sortedcontainers, is in the box as hypothesis's.
    "intervaltree": Library(
        "intervaltree",
        "3.2.1",
        (
            "test/interval_methods",
            *(f"test/intervaltree_methods/{name}_test.py" for name in ("query", "insert", "delete", "setlike", "init")),
            "intervaltree",
            "README.md",
        ),
        "test",
        INTERVALTREE_FUNCTIONS,
    ),
    # its tests (tests/, 480 of them, about 2 seconds) import the package, which tox installs: here
    # pytest is told to find it in src/
    "cachetools": Library(
        "cachetools",
        "8.0.3",
        ("tests",),
        "tests",
        CACHETOOLS_FUNCTIONS,
        (("setup.cfg", "[egg_info]\n", "[tool:pytest]\npythonpath = src\n\n[egg_info]\n"),),
        source_root="src",
    ),
    # its tests (tests/, 540 of them, about 2 seconds) import the package from the sdist's root
    "sqlparse": Library("sqlparse", "0.6.1", ("tests",), "tests", SQLPARSE_FUNCTIONS),
}
SOURCES = ("suite", "untyped", *LIBRARIES)
SOURCE_GROUPS = {"library": tuple(LIBRARIES), "all": SOURCES}
# the wrong versions made: ast mutants, plausible wrong drafts (benchmarks/plausible.py)
KINDS = ("mutants", "plausible")


# -- mutants ---------------------------------------------------------------------------------

OPERATORS = ("comparison", "off_by_one", "bound", "drop_branch", "and_or", "constant", "swap_operands")
_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_NOT_COMMUTATIVE = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift, ast.MatMult)


@dataclass(frozen=True)
class Site:
    operator: str
    node: int  # the node's position in `body_nodes` order
    variant: Any


@dataclass(frozen=True)
class Mutant:
    operator: str
    description: str
    source: str  # the correct version's imports and the mutated function


def function_node(tree: ast.Module, name: str) -> ast.FunctionDef:
    """The function `name` at the top of `tree`; a method, `Class.method` (a property's getter), or
    a property's `Class.name.setter`, in its class there, or at the top where the tree is one
    version's source (the method alone, at the left margin). The first def of the name that is no
    @overload stub: the one a call runs."""
    return oracle.top_function(tree, name)


def body_nodes(function: ast.FunctionDef) -> list[ast.AST]:
    """The body's nodes in a fixed order; the docstring, parameters and defaults are left alone."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return [node for statement in body for node in ast.walk(statement)]


def sites_of(node: ast.AST, function: ast.FunctionDef) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    if isinstance(node, ast.Compare):
        found += [("comparison", i) for i, op in enumerate(node.ops) if type(op) in _SWAPS]
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        found += [("off_by_one", 1), ("off_by_one", -1)]
    elif isinstance(node, ast.Constant) and type(node.value) in (bool, str):
        found.append(("constant", not node.value if type(node.value) is bool else ("x" if node.value == "" else "")))
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
        found += [("bound", (i, d)) for i, a in enumerate(node.args) if _bound(a) for d in (1, -1)]
    elif isinstance(node, ast.Slice):
        found += [("bound", (f, d)) for f in ("lower", "upper") if _bound(getattr(node, f)) for d in (1, -1)]
    elif isinstance(node, ast.If):
        found += [("drop_branch", "if")] + ([("drop_branch", "else")] if node.orelse else [])
    elif isinstance(node, ast.Return) and node is not function.body[-1]:
        found.append(("drop_branch", "return"))
    elif isinstance(node, ast.BoolOp):
        found.append(("and_or", None))
    elif isinstance(node, ast.BinOp) and isinstance(node.op, _NOT_COMMUTATIVE):
        found.append(("swap_operands", None))
    return found


def _bound(value: ast.expr | None) -> bool:
    """A bound worth moving by one that is not a literal (literals are off_by_one's)."""
    if value is None or isinstance(value, (ast.Constant, ast.Starred)):
        return False
    return not (isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant))


def _shifted(value: ast.expr, delta: int) -> ast.expr:
    return ast.BinOp(left=value, op=ast.Add() if delta > 0 else ast.Sub(), right=ast.Constant(1))


def apply(node: ast.AST, site: Site, function: ast.FunctionDef) -> str:
    """Change `node` in place as `site` says; a description of the change."""
    before = _text(node)
    if site.operator == "comparison":
        assert isinstance(node, ast.Compare)
        node.ops[site.variant] = _SWAPS[type(node.ops[site.variant])]()
    elif site.operator == "off_by_one":
        assert isinstance(node, ast.Constant)
        node.value += site.variant
    elif site.operator == "constant":
        assert isinstance(node, ast.Constant)
        node.value = site.variant
    elif site.operator == "bound":
        where, delta = site.variant
        if isinstance(node, ast.Call):
            node.args[where] = _shifted(node.args[where], delta)
        else:
            setattr(node, where, _shifted(getattr(node, where), delta))
    elif site.operator == "drop_branch":
        return _drop(node, site.variant, function)
    elif site.operator == "and_or":
        assert isinstance(node, ast.BoolOp)
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    else:
        assert isinstance(node, ast.BinOp)
        node.left, node.right = node.right, node.left
    return f"line {getattr(node, 'lineno', '?')}: `{before}` -> `{_text(node)}`"


def _drop(node: ast.AST, what: str, function: ast.FunctionDef) -> str:
    line = getattr(node, "lineno", "?")
    if isinstance(node, ast.If) and what == "if":
        node.body = [ast.Pass()]
        return f"line {line}: the body of `if {_text(node.test)}` -> pass"
    if isinstance(node, ast.If):
        node.orelse = []
        return f"line {line}: the else/elif of `if {_text(node.test)}` removed"
    for block in _blocks(function):
        if any(statement is node for statement in block):
            index = next(i for i, statement in enumerate(block) if statement is node)
            block[index : index + 1] = [] if len(block) > 1 else [ast.Pass()]
    return f"line {line}: early `{_text(node)}` removed"


def _blocks(function: ast.FunctionDef) -> Iterator[list[ast.stmt]]:
    for node in ast.walk(function):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def _text(node: ast.AST, limit: int = 70) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def make_mutant(source: str, name: str, site: Site, first_line: int = 1) -> Mutant | None:
    """The mutant `site` makes of `source`, or None when it does not compile."""
    tree = ast.parse(source)
    ast.increment_lineno(tree, first_line - 1)  # descriptions give the line in the project's file
    function = function_node(tree, name)
    description = apply(body_nodes(function)[site.node], site, function)
    text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    try:
        compile(text, "<mutant>", "exec")
    except (SyntaxError, ValueError):
        return None
    return Mutant(site.operator, description, text)


def generate(source: str, name: str, cap: int, first_line: int = 1) -> tuple[int, list[Mutant]]:
    """(how many mutation sites there are, at most `cap` distinct mutants spread over the operators)."""
    tree = ast.parse(source)
    function = function_node(tree, name)
    queues: dict[str, collections.deque[Site]] = {operator: collections.deque() for operator in OPERATORS}
    sites = 0
    for index, node in enumerate(body_nodes(function)):
        for operator, variant in sites_of(node, function):
            queues[operator].append(Site(operator, index, variant))
            sites += 1
    for operator, queue in queues.items():
        random.Random(f"{name}/{operator}").shuffle(queue)  # a str seed: the same order on every run
    seen = {ast.unparse(tree) + "\n"}
    chosen: list[Mutant] = []
    while len(chosen) < cap and any(queues.values()):
        for queue in queues.values():
            if queue and len(chosen) < cap:
                mutant = make_mutant(source, name, queue.popleft(), first_line)
                if mutant is not None and mutant.source not in seen:
                    seen.add(mutant.source)
                    chosen.append(mutant)
    return sites, chosen


# -- the checker -----------------------------------------------------------------------------


def check(
    sandbox: Sandbox,
    module: str,
    target: Target,
    candidate: str | None,
    baseline: Verdict | None,
    examples: Sequence[str],
    tests: Baseline | None = None,
) -> Verdict:
    """coderefine's verdict on `candidate`, reached as `coderefine optimize` reaches it: the
    options it sets by default, what the project's tests showed (`tests`, for the baseline run)
    and the baseline run's findings passed to every later check. The only call into the checker
    in this benchmark."""
    # The symbolic search as `coderefine optimize` runs it by default.
    options = VerifyOptions(examples=tuple(examples), symbolic_seconds=Settings().symbolic_seconds)
    try:
        # verify checks once more itself where the runner was killed from outside (the host short
        # of memory), then calls it the environment's problem.
        return verify(sandbox, module, target, candidate, options, baseline=baseline.baseline if baseline else tests)
    except EnvironmentProblem:
        raise
    except CoderefineError as problem:  # e.g. no inputs to test with: coderefine refuses the function
        return Verdict.failed("original", str(problem))


def lets_through(verdict: Verdict) -> tuple[bool, str | None]:
    """(whether the checker would let the candidate be offered, speed aside; why not).

    Today's Verdict says it with `correct`; a Verdict that has `verified` says it there, and
    being correct on the inputs is then not enough."""
    if not verdict.correct:
        return False, verdict.mismatch
    verified = getattr(verdict, "verified", None)
    if verified is None or verified:
        return True, None
    return False, str(getattr(verdict, "not_verified", None) or "not verified")


# -- one function ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Subject:
    source: str  # "suite", "untyped" or a library's name
    name: str
    file: str  # the function's file in the project
    module: str
    correct: str  # the correct version: imports and the function
    inputs: str  # the oracle's input maker
    tests: tuple[str, ...]  # the project's own tests, as pytest arguments
    examples: tuple[str, ...] = ()  # --example arguments, as a user would give them
    first_line: int = 1  # where `correct` starts in `file` (the suite's drafts are not in a file)
    import_root: str = ""  # the folder under the project that `module` is imported from ("src")


@dataclass(frozen=True)
class Kill:
    """Why a version counts as really wrong; no reason: equivalent to the original."""

    test_failure: str | None  # the project's own tests fail with it
    difference: oracle.Difference | None  # the host's differential check found an input
    # a plausible draft's own witness (a call written in its entry), run on both functions; only
    # tried when neither check above found anything
    witness: oracle.Difference | None = None

    @property
    def by(self) -> tuple[str, ...]:
        return (
            (("tests",) if self.test_failure else ())
            + (("inputs",) if self.difference else ())
            + (("witness",) if self.witness else ())
        )


@dataclass(frozen=True)
class MutantRow:
    """One wrong version: an ast mutant, or a plausible draft (`kind`), whose class is `operator`."""

    operator: str
    description: str
    kill: Kill
    outcome: str  # "equivalent" (discarded), "ineligible", "refused", "hole" (verified although wrong)
    faster: bool = False  # a hole measured faster: offered to the user
    mismatch: str | None = None  # the checker's reason for refusing
    # "differential", "project tests", "timing" (read from `mismatch`) or "evidence" (correct on the
    # inputs, but not verified: too few inputs, lines not run)
    refused_at: str | None = None
    checked: int = 0
    tests_passed: int = 0
    source: str = ""
    kind: str = "mutant"  # "mutant" or "plausible"


@dataclass(frozen=True)
class FunctionRow:
    source: str
    name: str
    skip_reason: str | None  # coderefine's reason for refusing the function, if it does
    sites: int
    correct_verified: bool | None  # None: not checked (an ineligible function)
    correct_faster: bool
    correct_reason: str | None  # why the checker refused the correct version
    correct_wrong: str | None  # the checker's counterexample, replayed on the host, shows it wrong after all
    premise: str | None  # the host's own checks found the correct version wrong: figures in doubt
    mutants: tuple[MutantRow, ...]
    seconds: float

    def count(self, outcome: str, kind: str = "mutant") -> int:
        return sum(row.outcome == outcome and row.kind == kind for row in self.mutants)

    def written(self, kind: str = "mutant") -> int:
        return sum(row.kind == kind for row in self.mutants)

    def offered(self, kind: str = "mutant") -> int:
        return sum(row.outcome == "hole" and row.faster and row.kind == kind for row in self.mutants)


def find_target(project: Path, subject: Subject) -> Target:
    for target in SourceFile.read(project / subject.file).targets():
        if target.name == subject.name:
            return target
    raise UsageError(f"{subject.file} has no function {subject.name}")


def judge(subject: Subject, project: Path, scratch: Path, candidate: str, witness: Witness | None = None) -> Kill:
    """The kill filter, on the host: the project's tests, then the differential check; then, for a
    plausible draft that neither shows wrong, the witness written in its entry."""
    root = project / subject.import_root
    kill = Kill(
        oracle.tests_fail(scratch, subject.file, subject.name, candidate, subject.tests),
        oracle.differs(root, subject.module, subject.name, candidate, subject.inputs),
    )
    if kill.by or witness is None:
        return kill
    shown, unlike = oracle.shows(
        root, subject.module, subject.name, candidate, witness.call, witness.original, witness.draft
    )
    if unlike:
        print(f"    WARNING: the witness is not as written: {unlike}", flush=True)
    return replace(kill, witness=shown)


def run_function(
    subject: Subject,
    project: Path,
    scratch: Path,
    sandbox: Sandbox,
    cap: int,
    tests: Baseline,
    kinds: Sequence[str] = KINDS,
) -> FunctionRow:
    started = time.monotonic()
    target = find_target(project, subject)
    sites, mutants = generate(subject.correct, subject.name, cap, subject.first_line)
    drafts = DRAFTS.get(subject.source, {}).get(subject.name, ()) if "plausible" in kinds else ()
    premise = judge(subject, project, scratch, subject.correct)
    rows = []
    for mutant in mutants if "mutants" in kinds else ():
        kill = judge(subject, project, scratch, mutant.source)
        rows.append(_judged(mutant.operator, mutant.description, mutant.source, "mutant", kill, target))
    for draft in drafts:
        kill = judge(subject, project, scratch, draft.source, draft.witness)
        rows.append(_judged(draft.kind, draft.description, draft.source, "plausible", kill, target))
    if "mutants" in kinds:
        kept = sum(row.outcome != "equivalent" for row in rows if row.kind == "mutant")
        print(
            f"  {len(mutants)} mutants of {sites} sites; {kept} really wrong, {len(mutants) - kept} equivalent",
            flush=True,
        )
    if drafts:
        kept = sum(row.outcome != "equivalent" for row in rows if row.kind == "plausible")
        witnessed = sum(row.kill.by == ("witness",) for row in rows if row.kind == "plausible")
        print(
            f"  {len(drafts)} plausible drafts; {kept} really wrong ({witnessed} by their witness alone), "
            f"{len(drafts) - kept} equivalent",
            flush=True,
        )
    verified, faster, reason, wrong = None, False, None, None
    if target.eligible:
        baseline = check(sandbox, subject.module, target, None, None, subject.examples, tests)
        usable, problem = lets_through(baseline)
        if usable:
            verdict = check(sandbox, subject.module, target, subject.correct, baseline, subject.examples)
            verified, reason = lets_through(verdict)
            faster = verified and verdict.faster
            print(f"  correct version: {'verified' if verified else 'REFUSED: ' + str(reason)}", flush=True)
            wrong = _wrong_after_all(subject, project, verdict)
            rows = [_checked(row, sandbox, subject, target, baseline) for row in rows]
        else:
            verified, reason = False, f"the original cannot be checked: {problem}"
            rows = [replace(row, mismatch=reason) if row.outcome == "refused" else row for row in rows]
            print(f"  {reason}", flush=True)
    else:
        print(f"  coderefine refuses it: {target.skip_reason}", flush=True)
    doubt = _premise(premise)
    if doubt:
        print(f"  WARNING: the correct version fails the host's checks: {doubt}", flush=True)
    return FunctionRow(
        subject.source,
        subject.name,
        target.skip_reason,
        sites,
        verified,
        faster,
        None if verified else reason,
        wrong,
        doubt,
        tuple(rows),
        round(time.monotonic() - started, 1),
    )


def _wrong_after_all(subject: Subject, project: Path, verdict: Verdict) -> str | None:
    """Where the checker refused the correct version on a counterexample, whether that input shows
    it wrong on the host too: then it is no correct rewrite of the original (the untyped suite's
    versions were written for the typed one), and the refusal is right, not a false one."""
    if verdict.verified or not verdict.counterexample:
        return None
    root = project / subject.import_root
    shown = oracle.replays(root, subject.module, subject.name, subject.correct, verdict.counterexample)
    if shown is None:
        return None
    text = f"on {shown.arguments} the original gives {shown.original}, it gives {shown.mutant}"
    print(f"  the refusal replays on the host: {text}", flush=True)
    return text


def _judged(label: str, description: str, source: str, kind: str, kill: Kill, target: Target) -> MutantRow:
    outcome = "equivalent" if not kill.by else "refused" if target.eligible else "ineligible"
    if outcome == "equivalent":
        print(f"    {label:19} {description[:72]:72} equivalent: discarded", flush=True)
    return MutantRow(label, description, kill, outcome, source=source, kind=kind)


def _premise(kill: Kill) -> str | None:
    if kill.test_failure:
        return f"the project's tests fail with it: {kill.test_failure}"
    if kill.difference:
        d = kill.difference
        return f"on {d.arguments} the original gives {d.original}, it gives {d.mutant}"
    return None


def _checked(row: MutantRow, sandbox: Sandbox, subject: Subject, target: Target, baseline: Verdict) -> MutantRow:
    if row.outcome == "equivalent":
        return row
    verdict = check(sandbox, subject.module, target, row.source, baseline, subject.examples)
    passed = verdict.found.tests_passed
    through, why = lets_through(verdict)
    row = replace(
        row,
        outcome="hole" if through else "refused",
        faster=through and verdict.faster,
        mismatch=why,
        refused_at=None if through else "evidence" if verdict.correct else _stage(why),
        checked=verdict.checked,
        tests_passed=passed if isinstance(passed, int) else 0,
    )
    print(f"    {_mutant_line(row)}", flush=True)
    return row


def _stage(mismatch: str | None) -> str:
    """Roughly which of the checker's steps refused, from its message: a guide, not a contract."""
    text = mismatch or ""
    if "project's test" in text:
        return "project tests"
    return "timing" if "timed" in text else "differential"


def _mutant_line(row: MutantRow) -> str:
    if row.outcome == "hole":
        verdict = f"VERIFIED on {row.checked} inputs: HOLE{', OFFERED' if row.faster else ''}"
    else:
        verdict = f"refused: {(row.mismatch or '')[:100]}"
    return f"{row.operator:19} {row.description[:72]:72} wrong by {'+'.join(row.kill.by):13} {verdict}"


# -- the two sources -------------------------------------------------------------------------


def suite_subjects() -> list[Subject]:
    return [
        Subject(
            "suite",
            name,
            "slow.py",
            "slow",
            FAST[name].strip() + "\n",
            "hints",
            ("test_slow.py",),
            tuple(EXAMPLES.get(name, ())),
        )
        for name in FAST
    ]


def untyped_subjects() -> list[Subject]:
    """The suite with every type hint stripped, from the originals and the correct versions alike:
    what most real code looks like. The oracle still draws from the typed suite's hints."""
    return [
        Subject(
            "untyped",
            name,
            "slow.py",
            "slow",
            strip_hints(FAST[name].strip()) + "\n",
            "typed-twin",
            ("test_slow.py",),
            tuple(EXAMPLES.get(name, ())),
        )
        for name in FAST
    ]


class _NoHints(ast.NodeTransformer):
    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.returns = None
        for argument in [
            *node.args.posonlyargs,
            *node.args.args,
            *node.args.kwonlyargs,
            node.args.vararg,
            node.args.kwarg,
        ]:
            if argument is not None:
                argument.annotation = None
        self.generic_visit(node)
        return node


def strip_hints(source: str) -> str:
    tree = _NoHints().visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree))


@contextmanager
def untyped_copy() -> Iterator[Path]:
    with project_copy() as project:
        slow = project / "slow.py"
        slow.write_text(strip_hints(slow.read_text(encoding="utf-8")) + "\n", encoding="utf-8")
        yield project


def library_subjects(library: Library, project: Path) -> list[Subject]:
    subjects = []
    for file, name in library.functions:
        text = (project / file).read_text(encoding="utf-8")
        node = function_node(ast.parse(text), name)
        # with its decorators (@classmethod, @property, @name.setter...), which the def's segment leaves out
        lines = text.splitlines(keepends=True)
        first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
        correct = "".join(lines[first - 1 : node.end_lineno])
        if node.col_offset:  # a method: at the left margin, as coderefine takes a draft of it
            correct = left_margin(correct, node.col_offset)
        module = file.removeprefix(f"{library.source_root}/" if library.source_root else "")
        module = module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        # The oracle's input maker: the library's own when a name is in two libraries (nth, get, ...)
        inputs = f"{library.name}.{name}" if f"{library.name}.{name}" in oracle.LIBRARY_INPUTS else name
        if inputs not in oracle.LIBRARY_INPUTS:
            inputs = "hints"  # a typed library with no maker of its own: the oracle's from its hints
        subjects.append(
            Subject(
                library.name,
                name,
                file,
                module,
                correct + "\n",
                inputs,
                library.tests,
                (),
                first,
                library.source_root,
            )
        )
    return subjects


def left_margin(text: str, indent: int) -> str:
    """A method's lines moved `indent` columns left: those that have the indent (a line of a string
    that starts further left, as in a docstring continued with a backslash, stays as it is; a
    blank line keeps its line break, which a docstring's doctests need between examples)."""
    lines = text.splitlines(keepends=True)
    return "".join(line[indent:] if line.startswith(" " * indent) else line for line in lines)


@contextmanager
def library_project(library: Library) -> Iterator[Path]:
    """The pinned library's sdist, downloaded and unpacked: its source and its own tests."""
    with tempfile.TemporaryDirectory(prefix="coderefine-mutation-") as folder:
        spec = f"{library.name}=={library.version}"
        project = sdist(library.name, library.version, Path(folder))
        if not (project / library.tests_dir).is_dir():
            raise EnvironmentProblem(f"the sdist of {spec} has no tests")
        patch(project, library.patches, spec)
        if library.metadata:
            installed = project / library.source_root / f"{library.name}-{library.version}.dist-info"
            installed.mkdir()
            (installed / "METADATA").write_bytes((project / "PKG-INFO").read_bytes())
        with tempfile.TemporaryDirectory(prefix="coderefine-mutation-test-modules-") as extra:
            for name, version, file in library.test_modules:
                module = sdist(name, version, Path(extra)) / file
                if not module.is_file():
                    raise EnvironmentProblem(f"the sdist of {name}=={version} has no {file}")
                (project / module.name).write_bytes(module.read_bytes())
        for path in [Path(folder), *Path(folder).rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)  # readable by the sandbox's user
        yield project


def sdist(name: str, version: str, folder: Path) -> Path:
    """The pinned sdist of `name`, downloaded with pip and unpacked into `folder`: its root."""
    spec = f"{name}=={version}"
    pip = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:"]
    done = subprocess.run(
        [*pip, spec, "-d", str(folder)], stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
    )
    # the archive's name may be the normalized one (python-dateutil: python_dateutil-4.0.0.tar.gz)
    stems = [f"{name}-{version}", f"{re.sub(r'[-_.]+', '_', name)}-{version}"]
    archives = [folder / f"{stem}.tar.gz" for stem in stems if (folder / f"{stem}.tar.gz").is_file()]
    if done.returncode != 0 or not archives:
        tail = (done.stderr.strip().splitlines() or ["no sdist"])[-1]
        raise EnvironmentProblem(f"cannot download the sdist of {spec}: {tail}")
    with tarfile.open(archives[0]) as archive:
        archive.extractall(folder, filter="data")
    return folder / archives[0].name.removesuffix(".tar.gz")


def patch(project: Path, patches: Sequence[tuple[str, str, str]], spec: str) -> None:
    for file, old, new in patches:
        path = project / file
        text = path.read_text(encoding="utf-8")
        if old not in text:
            raise EnvironmentProblem(f"the sdist of {spec} is not as expected: {file} has no `{old}`")
        path.write_text(text.replace(old, new), encoding="utf-8")


@contextmanager
def source_project(source: str) -> Iterator[Path]:
    if source == "suite":
        with project_copy() as project:
            yield project
    elif source == "untyped":
        with untyped_copy() as project:
            yield project
    else:
        with library_project(LIBRARIES[source]) as project:
            yield project


def run_source(source: str, only: set[str] | None, cap: int, kinds: Sequence[str] = KINDS) -> list[FunctionRow]:
    rows: list[FunctionRow] = []
    with source_project(source) as project, tempfile.TemporaryDirectory() as scratch_root:
        subjects = {"suite": suite_subjects, "untyped": untyped_subjects}.get(
            source, lambda: library_subjects(LIBRARIES[source], project)
        )()
        subjects = [s for s in subjects if only is None or s.name in only]
        if not subjects:
            return rows
        scratch = oracle.scratch_copy(project, Path(scratch_root))
        failure = oracle.run_tests(scratch, subjects[0].tests)
        if failure:
            raise EnvironmentProblem(f"the {source}'s own tests fail without any mutant: {failure}")
        with open_sandbox("docker", project=project, limits=limits_for(VerifyOptions())) as sandbox:
            # The project's tests, once, as a review runs them (see coderefine.code.baseline_cache).
            cache = BaselineCache(None, checker="mutation", baseline_tests=(), exclude=(), timeout=600.0)
            tests, _ = cache.tests_of(project, sandbox)
            for number, subject in enumerate(subjects, 1):
                print(f"[{source} {number}/{len(subjects)}] {subject.name}", flush=True)
                found = tests.baseline_for(subject.module, subject.name)
                rows.append(run_function(subject, project, scratch, sandbox, cap, found, kinds))
    return rows


# -- report ----------------------------------------------------------------------------------


def totals(rows: Sequence[FunctionRow], seconds: float) -> dict[str, Any]:
    eligible = [row for row in rows if row.skip_reason is None]
    generated = sum(row.written() for row in rows)
    equivalent = sum(row.count("equivalent") for row in rows)
    written = sum(row.written("plausible") for row in rows)
    dropped = sum(row.count("equivalent", "plausible") for row in rows)
    mutants = [m for row in rows for m in row.mutants if m.kind == "mutant"]
    drafts = [m for row in rows for m in row.mutants if m.kind == "plausible"]
    return {
        "functions": len(rows),
        "eligible_functions": len(eligible),
        "mutants_generated": generated,
        "equivalent_discarded": equivalent,
        "kept": generated - equivalent,
        "kept_checked": sum(row.count("hole") + row.count("refused") for row in rows),
        "kept_ineligible": sum(row.count("ineligible") for row in rows),
        "holes": sum(row.count("hole") for row in rows),
        "offered": sum(row.offered() for row in rows),
        "refused": sum(row.count("refused") for row in rows),
        "refused_by_project_tests_only": sum(
            m.refused_at == "project tests" for m in mutants if m.outcome == "refused"
        ),
        "plausible_written": written,
        "plausible_equivalent": dropped,
        "plausible_kept": written - dropped,
        "plausible_kept_by_witness_only": sum(m.kill.by == ("witness",) for m in drafts),
        "plausible_checked": sum(row.count("hole", "plausible") + row.count("refused", "plausible") for row in rows),
        "plausible_holes": sum(row.count("hole", "plausible") for row in rows),
        "plausible_offered": sum(row.offered("plausible") for row in rows),
        "plausible_refused": sum(row.count("refused", "plausible") for row in rows),
        "plausible_refused_by_project_tests_only": sum(
            m.refused_at == "project tests" for m in drafts if m.outcome == "refused"
        ),
        "correct_verified": sum(row.correct_verified is True for row in eligible),
        "correct_refused": sum(row.correct_verified is not True and not row.correct_wrong for row in eligible),
        "correct_wrong_after_all": sum(
            row.correct_verified is not True and bool(row.correct_wrong) for row in eligible
        ),
        "premise_problems": sum(row.premise is not None for row in rows),
        "seconds": round(seconds, 1),
    }


def print_source(source: str, rows: Sequence[FunctionRow], figures: dict[str, Any]) -> None:
    print(f"\n== {source}: {_source_label(source)}")
    print(
        f"{'':20} {'-- mutants ':-<41}  {'-- plausible drafts ':-<35}\n"
        f"{'function':20} {'gen':>4} {'equiv':>5} {'kept':>4} {'holes':>5} {'offer':>5} {'refus':>5} "
        f"{'t-only':>6}  {'wrote':>5} {'equiv':>5} {'kept':>4} {'holes':>5} {'offer':>5} {'refus':>5}  "
        f"{'correct version':30} {'s':>6}"
    )
    for row in rows:
        tests_only = sum(m.refused_at == "project tests" for m in row.mutants if m.kind == "mutant")
        print(
            f"{row.name:20} {row.written():4} {row.count('equivalent'):5} "
            f"{row.written() - row.count('equivalent'):4} {row.count('hole'):5} {row.offered():5} "
            f"{row.count('refused'):5} {tests_only:6}  {row.written('plausible'):5} "
            f"{row.count('equivalent', 'plausible'):5} "
            f"{row.written('plausible') - row.count('equivalent', 'plausible'):4} "
            f"{row.count('hole', 'plausible'):5} {row.offered('plausible'):5} {row.count('refused', 'plausible'):5}  "
            f"{_correct_label(row):30} {row.seconds:6.1f}"
        )
    print("(t-only: refused only by the project's tests, after differential testing let it through)")
    print("totals: " + ", ".join(f"{key} {value}" for key, value in figures.items()))
    for row in rows:
        _print_findings(row)


def _print_findings(row: FunctionRow) -> None:
    for mutant in row.mutants:
        d = mutant.kill.difference or mutant.kill.witness
        shown = f"; differs on {d.arguments}: {d.original} vs {d.mutant}" if d else ""
        what = "plausible draft " if mutant.kind == "plausible" else ""
        if mutant.outcome == "hole":
            print(
                f"  HOLE {row.name} {what}[{mutant.operator}] {mutant.description}; wrong by "
                f"{'+'.join(mutant.kill.by)}{shown}; checker: {mutant.checked} inputs, "
                f"{mutant.tests_passed} project test(s) passed{', OFFERED' if mutant.faster else ''}"
            )
            if mutant.kind == "plausible":
                print("    " + mutant.source.strip().replace("\n", "\n    "))
        elif mutant.refused_at == "project tests":
            print(f"  TESTS ONLY {row.name} {what}[{mutant.operator}] {mutant.description}: {mutant.mismatch}")
        elif mutant.kind == "plausible" and mutant.outcome == "equivalent":
            print(f"  EQUIVALENT {row.name} plausible draft [{mutant.operator}] {mutant.description}: dropped")
    if row.skip_reason is None and row.correct_verified is not True:
        if row.correct_wrong:
            print(f"  RIGHTLY REFUSED {row.name} (not correct after all): {row.correct_wrong}")
        else:
            print(f"  FALSE REFUSAL {row.name}: {row.correct_reason}")
    if row.premise:
        print(f"  PREMISE {row.name}: {row.premise}")


def _source_label(source: str) -> str:
    if source == "suite":
        return "benchmarks/slow_functions, correct version = fast.py's draft"
    if source == "untyped":
        return "benchmarks/slow_functions without type hints, correct version = fast.py's draft without them"
    library = LIBRARIES[source]
    return f"{library.name} {library.version} (sdist, its own tests), correct version = its own source"


def _correct_label(row: FunctionRow) -> str:
    if row.skip_reason is not None:
        return f"ineligible: {row.skip_reason}"[:30]
    if row.correct_verified:
        return "verified" + (", faster" if row.correct_faster else "")
    if row.correct_wrong:
        return "rightly refused: wrong after all"[:30]
    return f"REFUSED: {row.correct_reason or ''}"[:30]


def checker_version() -> dict[str, Any]:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT.parent, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    changed = git("status", "--porcelain", "--", "coderefine", "sandbox")
    return {"commit": git("rev-parse", "HEAD"), "uncommitted_changes": bool(changed), "image": default_image()}


def run(
    sources: Sequence[str], only: set[str] | None, cap: int, json_path: Path | None, kinds: Sequence[str] = KINDS
) -> None:
    started = time.monotonic()
    document: dict[str, Any] = {
        "checker": checker_version(),
        "libraries": {library.name: library.version for library in LIBRARIES.values()},
        "max_mutants": cap,
        "kinds": list(kinds),
        "sources": {},
    }
    everything: list[FunctionRow] = []
    for source in sources:
        source_started = time.monotonic()
        rows = run_source(source, only, cap, kinds)
        figures = totals(rows, time.monotonic() - source_started)
        document["sources"][source] = {"totals": figures, "functions": [asdict(row) for row in rows]}
        everything += rows
        print_source(source, rows, figures)
    document["totals"] = totals(everything, time.monotonic() - started)
    print("\nall: " + ", ".join(f"{key} {value}" for key, value in document["totals"].items()))
    if json_path is not None:
        json_path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--source", choices=(*SOURCES, *SOURCE_GROUPS), default="all")
    parser.add_argument("--max-mutants", type=int, default=8)
    parser.add_argument("--only", help="comma-separated function names")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument(
        "--kind",
        choices=(*KINDS, "both"),
        default="both",
        help="the wrong versions to check: ast mutants, plausible wrong drafts, or both",
    )
    args = parser.parse_args(argv)
    sources = SOURCE_GROUPS.get(args.source, (args.source,))
    only = set(args.only.split(",")) if args.only else None
    known = set(FAST) | {name for library in LIBRARIES.values() for _, name in library.functions}
    if only is not None and only - known:
        print(f"error: unknown function(s): {', '.join(sorted(only - known))}", file=sys.stderr)
        return 2
    if args.max_mutants < 1:
        print("error: --max-mutants must be positive", file=sys.stderr)
        return 2
    try:
        run(sources, only, args.max_mutants, args.json, KINDS if args.kind == "both" else (args.kind,))
    except CoderefineError as problem:
        print(f"error: {problem}", file=sys.stderr)
        return problem.exit_code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
