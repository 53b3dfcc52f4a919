"""Slow functions for the optimization benchmark: correct, readable, and needlessly slow."""

from __future__ import annotations


def dedupe(items: list[int]) -> list[int]:
    result = []
    for item in items:
        if item not in result:
            result.append(item)
    return result


def count_common(a: list[int], b: list[int]) -> int:
    count = 0
    for x in a:
        if x in b:
            count += 1
    return count


def total(xs: list[int]) -> int:
    result = 0
    for x in xs:
        result = result + x
    return result


def largest(values: list[int]) -> int:
    best = values[0]
    for value in values[1:]:
        if value > best:
            best = value
    return best


def char_frequency(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for char in text:
        if char in counts:
            counts[char] = counts[char] + 1
        else:
            counts[char] = 1
    return counts


def reverse_words(sentence: str) -> str:
    words = sentence.split(" ")
    out = ""
    for word in words:
        out = word + " " + out
    return out[:-1]


def count_primes_below(n: int) -> int:
    count = 0
    for candidate in range(2, n):
        if all(candidate % d != 0 for d in range(2, candidate)):
            count += 1
    return count


def max_difference(xs: list[int]) -> int:
    best = 0
    for a in xs:
        for b in xs:
            if a - b > best:
                best = a - b
    return best


def has_duplicates(xs: list[int]) -> bool:
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] == xs[j]:
                return True
    return False


def two_sum_exists(xs: list[int], target: int) -> bool:
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == target:
                return True
    return False


def running_sums(xs: list[int]) -> list[int]:
    return [sum(xs[: i + 1]) for i in range(len(xs))]


def flatten(nested: list[list[int]]) -> list[int]:
    result: list[int] = []
    for sub in nested:
        result = result + sub
    return result


def count_vowels(text: str) -> int:
    count = 0
    for char in text:
        if char in "aeiou":
            count += 1
    return count


def index_of_max(xs: list[int]) -> int:
    if not xs:
        return -1
    best_index = 0
    for i in range(len(xs)):
        if xs[i] > xs[best_index]:
            best_index = i
    return best_index


def unique_sorted(xs: list[int]) -> list[int]:
    out: list[int] = []
    for x in xs:
        if x in out:
            continue
        position = 0
        while position < len(out) and out[position] < x:
            position += 1
        out.insert(position, x)
    return out


def contains_all(haystack: list[int], needles: list[int]) -> bool:
    for needle in needles:
        found = False
        for item in haystack:
            if item == needle:
                found = True
        if not found:
            return False
    return True


def mode(xs: list[int]) -> int:
    if not xs:
        raise ValueError("mode of an empty list")
    best, best_count = xs[0], 0
    for x in xs:
        count = xs.count(x)
        if count > best_count:
            best, best_count = x, count
    return best


def remove_all(xs: list[int], value: int) -> list[int]:
    while value in xs:
        xs.remove(value)
    return xs


def squares_of_evens(xs: list[int]) -> list[int]:
    result = []
    for x in xs:
        if x % 2 == 0:
            result.append(x * x)
    return result


def common_prefix_length(a: str, b: str) -> int:
    length = 0
    while length < len(a) and length < len(b) and a[: length + 1] == b[: length + 1]:
        length += 1
    return length


def sum_of_multiples(limit: int) -> int:
    return sum(x for x in range(limit) if x % 3 == 0 or x % 5 == 0)


def positions_of(xs: list[int], value: int) -> list[int]:
    positions = []
    for i in range(len(xs)):
        if xs[i] == value:
            positions.append(i)
    return positions
