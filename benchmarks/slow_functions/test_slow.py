"""The slow functions' own tests: what they must keep doing, whoever rewrites them."""

import pytest
import slow


def test_dedupe() -> None:
    assert slow.dedupe([3, 1, 3, 2, 1]) == [3, 1, 2]


def test_count_common() -> None:
    assert slow.count_common([1, 2, 2, 3], [2, 3, 4]) == 3


def test_total_and_largest() -> None:
    assert slow.total([1, 2, 3]) == 6
    assert slow.largest([3, 9, 2]) == 9
    with pytest.raises(IndexError):
        slow.largest([])


def test_text_functions() -> None:
    assert slow.char_frequency("abca") == {"a": 2, "b": 1, "c": 1}
    assert slow.reverse_words("one two three") == "three two one"
    assert slow.count_vowels("education") == 5
    assert slow.common_prefix_length("interval", "internet") == 5


def test_numbers() -> None:
    assert slow.count_primes_below(20) == 8
    assert slow.sum_of_multiples(10) == 23
    assert slow.max_difference([4, 1, 7]) == 6


def test_pairs() -> None:
    assert slow.has_duplicates([1, 2, 1])
    assert not slow.has_duplicates([1, 2, 3])
    assert slow.two_sum_exists([1, 4, 6], 10)
    assert not slow.two_sum_exists([1, 4, 6], 3)
    assert slow.contains_all([1, 2, 3], [3, 1])


def test_lists() -> None:
    assert slow.running_sums([1, 2, 3]) == [1, 3, 6]
    assert slow.flatten([[1], [2, 3], []]) == [1, 2, 3]
    assert slow.index_of_max([1, 5, 5, 2]) == 1
    assert slow.unique_sorted([3, 1, 3, 2]) == [1, 2, 3]
    assert slow.mode([1, 2, 2, 3]) == 2
    assert slow.squares_of_evens([1, 2, 3, 4]) == [4, 16]
    assert slow.positions_of([1, 2, 1], 1) == [0, 2]


def test_remove_all_changes_its_argument() -> None:
    xs = [1, 2, 1, 3]
    assert slow.remove_all(xs, 1) is xs
    assert xs == [2, 3]
