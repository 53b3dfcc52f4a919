"""Known-good faster versions of slow.py's functions: what the scripted model answers.

Each must behave exactly like its slow twin (results, exceptions, argument
changes); the benchmark's scripted run measures how much faster it is.
"""

FAST = {
    "dedupe": """
def dedupe(items: list[int]) -> list[int]:
    return list(dict.fromkeys(items))
""",
    "count_common": """
def count_common(a: list[int], b: list[int]) -> int:
    members = set(b)
    return sum(1 for x in a if x in members)
""",
    "total": """
def total(xs: list[int]) -> int:
    return sum(xs)
""",
    "largest": """
def largest(values: list[int]) -> int:
    if not values:
        raise IndexError("list index out of range")
    return max(values)
""",
    "char_frequency": """
from collections import Counter

def char_frequency(text: str) -> dict[str, int]:
    return dict(Counter(text))
""",
    "reverse_words": """
def reverse_words(sentence: str) -> str:
    return " ".join(reversed(sentence.split(" ")))
""",
    "count_primes_below": """
def count_primes_below(n: int) -> int:
    if n < 3:
        return 0
    sieve = bytearray([1]) * n
    sieve[0] = sieve[1] = 0
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytes(len(range(i * i, n, i)))
    return sum(sieve)
""",
    "max_difference": """
def max_difference(xs: list[int]) -> int:
    if not xs:
        return 0
    return max(0, max(xs) - min(xs))
""",
    "has_duplicates": """
def has_duplicates(xs: list[int]) -> bool:
    return len(set(xs)) != len(xs)
""",
    "two_sum_exists": """
def two_sum_exists(xs: list[int], target: int) -> bool:
    seen = set()
    for x in xs:
        if target - x in seen:
            return True
        seen.add(x)
    return False
""",
    "running_sums": """
from itertools import accumulate

def running_sums(xs: list[int]) -> list[int]:
    return list(accumulate(xs))
""",
    "flatten": """
def flatten(nested: list[list[int]]) -> list[int]:
    return [item for sub in nested for item in sub]
""",
    "count_vowels": """
def count_vowels(text: str) -> int:
    return sum(map(text.count, "aeiou"))
""",
    "index_of_max": """
def index_of_max(xs: list[int]) -> int:
    if not xs:
        return -1
    return xs.index(max(xs))
""",
    "unique_sorted": """
def unique_sorted(xs: list[int]) -> list[int]:
    return sorted(set(xs))
""",
    "contains_all": """
def contains_all(haystack: list[int], needles: list[int]) -> bool:
    return set(needles) <= set(haystack)
""",
    "mode": """
from collections import Counter

def mode(xs: list[int]) -> int:
    if not xs:
        raise ValueError("mode of an empty list")
    return Counter(xs).most_common(1)[0][0]
""",
    "remove_all": """
def remove_all(xs: list[int], value: int) -> list[int]:
    xs[:] = [x for x in xs if x != value]
    return xs
""",
    "squares_of_evens": """
def squares_of_evens(xs: list[int]) -> list[int]:
    return [x * x for x in xs if x % 2 == 0]
""",
    "common_prefix_length": """
def common_prefix_length(a: str, b: str) -> int:
    length = 0
    for x, y in zip(a, b):
        if x != y:
            break
        length += 1
    return length
""",
    "sum_of_multiples": """
def sum_of_multiples(limit: int) -> int:
    if limit <= 0:
        return 0

    def multiples(k: int) -> int:
        m = (limit - 1) // k
        return k * m * (m + 1) // 2

    return multiples(3) + multiples(5) - multiples(15)
""",
    "positions_of": """
def positions_of(xs: list[int], value: int) -> list[int]:
    return [i for i, x in enumerate(xs) if x == value]
""",
}

# Inputs the timing should include, beyond the generated ones (as --example would give them).
EXAMPLES = {
    "count_primes_below": ["3000"],
    "sum_of_multiples": ["100000"],
}
