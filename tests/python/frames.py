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


def cut(tag):
    # The caller's frame made to say the frame before it is at a kernel
    # address, which every load from user space faults on: the walk stops
    # there, the fault never reaching the program; put back after.
    import ctypes
    previous = 8 if sys.version_info >= (3, 12) else 48  # _PyInterpreterFrame.previous
    frame = ctypes.c_void_p.from_address(id(sys._getframe(1)) + 24).value  # f_frame
    link = ctypes.c_void_p.from_address(frame + previous)
    saved = link.value
    link.value = 0xFFFF800000000000
    try:
        mark(tag)  # @cut
    finally:
        link.value = saved


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
