#!/usr/bin/env python3
"""pty_drive.py: runs a command in a pseudo-terminal and talks to it like a
person at a keyboard, from a script read on stdin, one step a line:

    expect REGEX   wait (up to --timeout seconds) until the output since the
                   last match matches REGEX (Python syntax, ANSI codes removed)
    send TEXT      type TEXT and Enter
    sleep SECONDS

Prints the whole session to stdout with ANSI escapes removed (the raw bytes go
to --raw FILE when given). Exits 0 when every step passed and the program
ended with status 0, else 1 (a timed-out expect says which), with the exit
status as the last line: "exit N".
"""
import argparse
import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]|\r")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--raw")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    steps = [line.rstrip("\n") for line in sys.stdin if line.strip()]

    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ.pop("NO_COLOR", None)
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
    raw = b""
    seen = 0  # where the next expect starts looking, in the cleaned text

    def read(wait):
        nonlocal raw
        r, _, _ = select.select([fd], [], [], wait)
        if not r:
            return True
        try:
            data = os.read(fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        raw += data
        return True

    def clean():
        return ANSI.sub(b"", raw).decode("utf-8", "replace")

    ok = True
    for step in steps:
        verb, _, arg = step.partition(" ")
        if verb == "expect":
            deadline = time.time() + a.timeout
            pattern = re.compile(arg, re.M)
            while True:
                m = pattern.search(clean(), seen)
                if m:
                    seen = m.end()
                    break
                if time.time() > deadline:
                    ok = False
                    break
                if not read(0.1):
                    time.sleep(0.05)  # the program ended: a last look, then time out
            if not ok:
                print(clean())
                print("pty_drive: timed out waiting for /%s/" % arg)
                break
        elif verb == "send":
            os.write(fd, arg.encode() + b"\r")
        elif verb == "sleep":
            time.sleep(float(arg))
    # Let the program finish and collect the rest of its output.
    deadline = time.time() + (a.timeout if ok else 1)
    status = None
    while time.time() < deadline:
        alive = read(0.1)
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            while read(0.05):
                pass
            status = st
            break
        if not alive:
            _, status = os.waitpid(pid, 0)
            break
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        ok = False
        print("pty_drive: the program did not end")
    if a.raw:
        with open(a.raw, "wb") as f:
            f.write(raw)
    if ok:
        print(clean())
    code = os.waitstatus_to_exitcode(status) if status is not None else -9
    print("exit %d" % code)
    sys.exit(0 if ok and code == 0 else 1)


main()
