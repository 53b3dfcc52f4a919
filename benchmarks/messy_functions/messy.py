"""Hard-to-read functions for the readability benchmark: each works, none is pleasant to read."""


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


def sign_label(x: int) -> str:
    negative = False
    zero = False
    if x < 0:
        negative = True
    else:
        if x == 0:
            zero = True
    if negative == True:
        return "negative"
    else:
        if zero == True:
            return "zero"
        else:
            return "positive"


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


def first_negative(xs: list[int]) -> int:
    found = False
    idx = -1
    i = 0
    while i < len(xs) and found == False:
        if xs[i] < 0:
            found = True
            idx = i
        else:
            pass
        i += 1
    if found:
        return idx
    else:
        return -1


def clamp(x: int, low: int, high: int) -> int:
    if x < low:
        r = low
    else:
        if x > high:
            r = high
        else:
            r = x
    return r


def fizzbuzz_word(n: int) -> str:
    if n % 3 == 0:
        if n % 5 == 0:
            return "FizzBuzz"
        else:
            return "Fizz"
    else:
        if n % 5 == 0:
            return "Buzz"
        else:
            return str(n)


def is_leap(year: int) -> bool:
    if year % 4 == 0:
        if year % 100 == 0:
            if year % 400 == 0:
                return True
            else:
                return False
        else:
            return True
    else:
        return False


def total_positive(xs: list[int]) -> int:
    t = 0
    for i in range(len(xs)):
        if xs[i] > 0:
            t = t + xs[i]
        else:
            continue
    return t


def longest_run(xs: list[int]) -> int:
    if len(xs) == 0:
        return 0
    best = 1
    cur = 1
    i = 1
    while i < len(xs):
        if xs[i] == xs[i - 1]:
            cur = cur + 1
            if cur > best:
                best = cur
        else:
            cur = 1
        i = i + 1
    return best


def describe_temperature(t: float) -> str:
    if t < 0:
        d = "freezing"
    elif t >= 0 and t < 15:
        d = "cold"
    elif t >= 15 and t < 25:
        d = "mild"
    elif t >= 25:
        d = "hot"
    else:
        d = "unknown"
    return d


def merge_counts(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = {}
    for k in a.keys():
        out[k] = a[k]
    for k in b.keys():
        if k in out.keys():
            out[k] = out[k] + b[k]
        else:
            out[k] = b[k]
    return out


def initials(name: str) -> str:
    res = ""
    prev_space = True
    for i in range(len(name)):
        ch = name[i]
        if ch == " ":
            prev_space = True
        else:
            if prev_space == True:
                res = res + ch.upper()
                prev_space = False
            else:
                prev_space = False
    return res
