"""Hard-to-read functions to try coderefine on: `coderefine readability examples/messy.py::grade`."""


def grade(score: int) -> str:
    if score >= 0:
        if score >= 90:
            result = "A"
        else:
            if score >= 80:
                result = "B"
            else:
                if score >= 70:
                    result = "C"
                else:
                    result = "F"
    else:
        result = "invalid"
    return result


def count_vowels(text: str) -> int:
    n = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c == "a" or c == "e" or c == "i" or c == "o" or c == "u":
            n = n + 1
        else:
            if c == "A" or c == "E" or c == "I" or c == "O" or c == "U":
                n = n + 1
        i = i + 1
    return n
