"""The messy functions' own tests: what they must keep doing, whoever rewrites them."""

import messy


def test_grade() -> None:
    assert [messy.grade(s) for s in (-1, 0, 69, 70, 80, 90, 100)] == ["invalid", "F", "F", "C", "B", "A", "A"]


def test_sign_label() -> None:
    assert [messy.sign_label(x) for x in (-3, 0, 3)] == ["negative", "zero", "positive"]


def test_count_vowels() -> None:
    assert messy.count_vowels("Readability Is Good") == 8


def test_first_negative() -> None:
    assert (messy.first_negative([3, -1, -2]), messy.first_negative([1, 2])) == (1, -1)


def test_clamp() -> None:
    assert [messy.clamp(x, 0, 10) for x in (-5, 5, 15)] == [0, 5, 10]


def test_fizzbuzz_word() -> None:
    assert [messy.fizzbuzz_word(n) for n in (3, 5, 15, 7)] == ["Fizz", "Buzz", "FizzBuzz", "7"]


def test_is_leap() -> None:
    assert [messy.is_leap(y) for y in (1900, 2000, 2024, 2023)] == [False, True, True, False]


def test_total_positive() -> None:
    assert messy.total_positive([3, -1, 4, 0]) == 7


def test_longest_run() -> None:
    assert (messy.longest_run([1, 1, 2, 2, 2, 1]), messy.longest_run([])) == (3, 0)


def test_describe_temperature() -> None:
    assert [messy.describe_temperature(t) for t in (-1.0, 0.0, 15.0, 30.0)] == ["freezing", "cold", "mild", "hot"]


def test_merge_counts() -> None:
    assert messy.merge_counts({"a": 1}, {"a": 2, "b": 3}) == {"a": 3, "b": 3}


def test_initials() -> None:
    assert messy.initials("ada  lovelace") == "AL"
