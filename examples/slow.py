"""Slow functions to try coderefine on: `coderefine optimize examples/slow.py::total`."""


def total(xs: list[int]) -> int:
    """The sum of the numbers."""
    result = 0
    for x in xs:
        result = result + x
    return result


def dedupe(items: list[int]) -> list[int]:
    """The items without repeats, first occurrences kept in order."""
    result = []
    for item in items:
        if item not in result:
            result.append(item)
    return result


def has_duplicates(xs: list[int]) -> bool:
    """Whether any value occurs twice."""
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] == xs[j]:
                return True
    return False
