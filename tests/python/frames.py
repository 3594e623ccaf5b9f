# SPDX-License-Identifier: GPL-2.0-or-later
# frames.py SCENARIO: make the traced call access("/nonexistent/SCENARIO")
# from Python frames of each kind (tests/pyframes.bats); prints what it did.
import os
import sys
import threading
import time


def mark(tag):
    os.access("/nonexistent/" + tag, os.F_OK)  # @mark


class Shelf:
    def load(self):
        mark("method")  # @method


def numbers():
    mark("generator")  # @generator
    yield 1


def by_key(v):
    mark("key")  # @key
    return -v


def deep(n):
    # Each level goes through map(): a C activation of the evaluation loop per level.
    if n == 0:
        mark("deep")  # @deep-leaf
        return 0
    return sum(map(deep, [n - 1]))  # @deep


def raiser():
    raise ValueError("caught above")  # @raiser


def catcher():
    try:
        raiser()  # @try
    except ValueError:
        mark("caught")  # @caught


def worker():
    mark("thread")  # @worker


def sleeper():
    # The GIL released in the sleep, while another thread holds it.
    time.sleep(0.001)  # @sleeper


def sever(frame):
    """Make frame say the frame before it is at a kernel address, which
    every load from user space faults on; returns what puts it back."""
    import ctypes
    previous = 8 if sys.version_info >= (3, 12) else 48  # _PyInterpreterFrame.previous
    frame = ctypes.c_void_p.from_address(id(frame) + 24).value  # f_frame
    link = ctypes.c_void_p.from_address(frame + previous)
    saved = link.value
    link.value = 0xFFFF800000000000
    return lambda: setattr(link, "value", saved)


def cut(tag):
    # The caller's frame severed: the walk stops there, the fault never
    # reaching the program; put back after.
    mend = sever(sys._getframe(1))
    try:
        mark(tag)  # @cut
    finally:
        mend()


def probe(tag, last=None):
    # The traced call (after a call with the same frames), and the frames
    # Python says it runs in, on one line.
    os.getppid(); os.access("/nonexistent/" + tag, os.F_OK); report(tag, sys._getframe(), last)  # @probe


def report(tag, frame, last):
    """Print frame's chain, to last if given, as ltruss names it: "func (file:line)", innermost first."""
    names = []
    while frame:
        code = frame.f_code
        names.append("%s (%s:%d)" % (code.co_qualname, os.path.basename(code.co_filename), frame.f_lineno))
        frame = frame.f_back if frame is not last else None
    print(tag + ": " + " < ".join(names))


def twice():
    # The same frames inside, called from another line of the same frame.
    probe("line-1")
    probe("line-2")


def alternate(first):
    # Generators resumed in turn, each at a yield of its own.
    while True:
        probe("gen-" + first)
        yield
        probe("gen-" + first + "-again")
        yield


def fail():
    probe("before-raise")
    raise ValueError("caught above")


def down(n):
    if n:
        return down(n - 1)
    probe("depth")
    return 0


def severed():
    # The same frames inside as the call before, from the same line, but
    # the walk ends at this frame, severed: fewer frames than the call
    # before had, and than the call after has.
    me = sys._getframe()
    for tag in ("whole", "severed", "whole-again"):
        mend = sever(me) if tag == "severed" else (lambda: None)
        try:
            probe(tag, me if tag == "severed" else None)
        finally:
            mend()


def changes():
    # Calls whose outer frames change: each traced call's frames must be
    # those the program reports, whatever the call before it had.
    for _ in range(2):
        twice()
    g, h = alternate("a"), alternate("b")
    for _ in range(2):
        next(g)
        next(h)
    for n in (3, 1, 3, 0, 5):
        down(n)
    try:
        fail()
    except ValueError:
        probe("after-raise")
    print(sorted([2, 1], key=lambda v: (probe("key"), v)[1]))
    down(2)
    severed()


def spin(stop):
    while not stop.is_set():
        pass


def run(scenario):
    if scenario == "method":
        Shelf().load()  # @run-method
    elif scenario == "generator":
        print(sum(numbers()))  # @run-generator
    elif scenario == "key":
        print(sorted([3, 1, 2], key=by_key))  # @run-key
    elif scenario == "deep":
        print(deep(int(sys.argv[2])))  # @run-deep
    elif scenario == "loop":
        for _ in range(int(sys.argv[2])):
            deep(20)
    elif scenario == "caught":
        catcher()  # @run-caught
    elif scenario == "thread":
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    elif scenario == "released":
        stop = threading.Event()
        spinner = threading.Thread(target=spin, args=(stop,))
        spinner.start()
        t = threading.Thread(target=sleeper)
        t.start()
        t.join()
        stop.set()
        spinner.join()
    elif scenario == "changes":
        changes()
    elif scenario == "unreadable":
        cut("unreadable")  # @run-unreadable
    elif scenario == "fork":
        pid = os.fork()
        if pid == 0:
            mark("fork")  # @child
            os._exit(0)
        os.waitpid(pid, 0)
    print(scenario, "done")


run(sys.argv[1])  # @module
