"""Clearer versions of messy.py, as a good model would write them: the scripted run's answers."""

CLEAR = {
    "grade": '''def grade(score: int) -> str:
    """The letter for a score; negative scores are invalid."""
    if score < 0:
        return "invalid"
    if score >= 90:
        return "A"
    if score >= 80:
        return "B"
    if score >= 70:
        return "C"
    return "F"
''',
    "sign_label": '''def sign_label(x: int) -> str:
    """Whether x is negative, zero or positive, in words."""
    if x < 0:
        return "negative"
    if x == 0:
        return "zero"
    return "positive"
''',
    "count_vowels": '''def count_vowels(text: str) -> int:
    """How many letters of text are vowels (either case)."""
    return sum(1 for char in text if char in "aeiouAEIOU")
''',
    "first_negative": '''def first_negative(xs: list[int]) -> int:
    """The index of the first negative number, or -1 when there is none."""
    for index, x in enumerate(xs):
        if x < 0:
            return index
    return -1
''',
    "clamp": '''def clamp(x: int, low: int, high: int) -> int:
    """x, moved into [low, high] (low wins when they cross)."""
    if x < low:
        return low
    return high if x > high else x
''',
    "fizzbuzz_word": '''def fizzbuzz_word(n: int) -> str:
    """Fizz for multiples of 3, Buzz for 5, FizzBuzz for both, else the number."""
    if n % 15 == 0:
        return "FizzBuzz"
    if n % 3 == 0:
        return "Fizz"
    if n % 5 == 0:
        return "Buzz"
    return str(n)
''',
    "is_leap": '''def is_leap(year: int) -> bool:
    """Whether year is a leap year in the Gregorian calendar."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
''',
    "total_positive": '''def total_positive(xs: list[int]) -> int:
    """The sum of the positive numbers."""
    total = 0
    for x in xs:
        if x > 0:
            total += x
    return total
''',
    "longest_run": '''def longest_run(xs: list[int]) -> int:
    """The length of the longest run of equal neighbours (0 for an empty list)."""
    if not xs:
        return 0
    best = current = 1
    for previous, x in zip(xs, xs[1:]):
        if x != previous:
            current = 1
            continue
        current += 1
        if current > best:
            best = current
    return best
''',
    "describe_temperature": '''def describe_temperature(t: float) -> str:
    """A word for a temperature in degrees Celsius."""
    if t < 0:
        return "freezing"
    if t < 15:
        return "cold"
    if t < 25:
        return "mild"
    return "hot"
''',
    "merge_counts": '''def merge_counts(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """The counts of a and b added up, key by key (a's keys first)."""
    merged = dict(a)
    for key, count in b.items():
        merged[key] = merged.get(key, 0) + count
    return merged
''',
    "initials": '''def initials(name: str) -> str:
    """The first letter of each word, in capitals."""
    return "".join(word[0].upper() for word in name.split(" ") if word)
''',
}
