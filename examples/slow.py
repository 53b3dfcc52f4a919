"""Slow functions to try coderefine on: `coderefine optimize examples/slow.py::squares`."""


def squares(xs: list[int]) -> list[int]:
    """The square of each number."""
    result = []
    i = 0
    while i < len(xs):
        result.append(xs[i] ** 2)
        i = i + 1
    return result


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
