#!/usr/bin/env python3
"""playtak_fake_server.py PORT_FILE LOG_FILE [MODE ...]: a
scripted PlayTak server for
tests/cli/test_playtak.sh, speaking the lines the real server (tak-server,
bench/PLAYTAK.md) writes, to one bot, through one whole game:

  login as a guest (the token kept), the bot's seek checked word for word,
  hostile lines (skipped), a game the bot cannot play (resigned),
  an opponent takes it (the bot is White on 6x6), moves both ways with the
  clocks, a Tell asking for 'eval', a draw offer (the bot is run refusing),
  a takeback asked and granted (the bot is run accepting), the connection
  dropped mid-game and the game replayed when the bot logs in again with
  the same token, and the opponent resigning after the bot's sixth move.

The opponent places flats on empty squares; with so few pieces on 6x6 no
road is possible, so the fake needs no rules beyond stack heights.

It listens on 127.0.0.1, or on the address in PLAYTAK_FAKE_HOST (::1 for IPv6),
on a port of its choosing, or on PLAYTAK_FAKE_PORT.
With 'refuse-login USER PASSWORD' it checks instead that the bot logs in as
USER with PASSWORD, answers 'Authentication failure' as the real server
does, and expects the bot to go without retrying. With 'silent-before-welcome'
it never answers the bot's login, with 'silent-after-welcome' it welcomes
the bot and then says nothing, PINGs unanswered: either way the bot must
hang up by itself (run with a short TAK_PLAYTAK_PING_S). With 'accept' it
lists three seeks to a bot run with --accept: a NOK right after an Accept
refuses that seek, and a NOK after a Tell does not. Every
check that fails is written to LOG_FILE as 'FAIL ...'; exit status 0 only
when all passed and the bot said 'quit'."""
import os
import re
import socket
import sys

SIZE = 6
port_file, log_file = sys.argv[1], sys.argv[2]
log = open(log_file, "w")
failures = []


def note(text):
    log.write(text + "\n")
    log.flush()


def fail(text):
    failures.append(text)
    note("FAIL " + text)


class Conn:
    def __init__(self, sock, answer_pings=True):
        self.sock = sock
        self.sock.settimeout(30)
        self.buf = b""
        self.answer_pings = answer_pings

    def send(self, line):
        note("< " + line)
        self.sock.sendall((line + "\n").encode())

    def recv(self, wait=None):
        """The bot's next line, PINGs answered on the way; None at its end.
        With `wait`: "" when the bot says nothing for that many seconds."""
        self.sock.settimeout(wait or 30)
        while True:
            while b"\n" not in self.buf:
                try:
                    data = self.sock.recv(4096)
                except socket.timeout:
                    if wait:
                        return ""
                    fail("the bot said nothing for 30 s")
                    return None
                if not data:
                    return None
                self.buf += data
            line, self.buf = self.buf.split(b"\n", 1)
            line = line.decode().rstrip("\r")
            note("> " + line)
            if line == "PING" and self.answer_pings:
                self.send("OK")
                continue
            return line


board = [[0] * SIZE for _ in range(SIZE)]  # stack heights
history = []  # (board copy, move text) per ply
eval_answers = 0


def square(text):
    return ord(text[0]) - ord("A"), int(text[1]) - 1


def apply(move):
    parts = move.split()
    history.append(([row[:] for row in board], move))
    if parts[0] == "P":
        f, r = square(parts[1])
        if board[r][f]:
            fail("a placement on a taken square: " + move)
        board[r][f] = 1
        return
    f, r = square(parts[1])
    tf, tr = square(parts[2])
    drops = [int(d) for d in parts[3:]]
    df, dr = (tf > f) - (tf < f), (tr > r) - (tr < r)
    if sum(drops) > board[r][f]:
        fail("a spread of more than the stack: " + move)
    board[r][f] -= sum(drops)
    for i, d in enumerate(drops):
        board[r + dr * (i + 1)][f + df * (i + 1)] += d


def undo():
    global board
    board, _ = history.pop()


def opponent_move():
    # Far corner first, away from where the engine usually starts.
    for r in range(SIZE - 1, -1, -1):
        for f in range(SIZE - 1, -1, -1):
            if board[r][f] == 0:
                return "P %s%d" % (chr(ord("A") + f), r + 1)
    raise SystemExit("board full")


MOVE = re.compile(r"^Game#1 (P [A-F][1-6]( [CW])?|M [A-F][1-6] [A-F][1-6]( [1-6])+)$")
time_ms = [60000, 60000]


def clocks(conn):
    conn.send("Game#1 Timems %d %d" % tuple(time_ms))


def login(conn, token=None):
    conn.send("Welcome!")
    conn.send("Login or Register")
    got = [conn.recv() for _ in range(3)]
    if not got[0] or not got[0].startswith("Client "):
        fail("first line not 'Client ...': %r" % got[0])
    if got[1] != "Protocol 1":
        fail("second line not 'Protocol 1': %r" % got[1])
    m = re.match(r"^Login Guest ([a-z]{20})$", got[2] or "")
    if not m:
        fail("not a guest login with a 20-letter token: %r" % got[2])
        return None
    if token and m.group(1) != token:
        fail("logged in again with another token")
    conn.send("OK")
    conn.send("OK")
    return m.group(1)


def bot_move(conn):
    """Reads until the bot moves; answers what comes before."""
    global eval_answers
    while True:
        line = conn.recv()
        if line is None:
            fail("the connection ended while waiting for a move")
            raise SystemExit(1)
        if line.startswith("Tell fake_opp "):
            if "My evaluation" in line or "not searched" in line:
                eval_answers += 1
            continue
        if line.startswith("Game#1 RequestUndo") or line.startswith("Game#1 OfferDraw"):
            return line
        if not MOVE.match(line):
            fail("not a move: %r" % line)
            continue
        move = line[len("Game#1 "):]
        apply(move)
        time_ms[0] += 1000
        clocks(conn)
        conn.send("OK")
        return move


def refuse_login(conn, server, user, password):
    conn.send("Welcome!")
    conn.send("Login or Register")
    got = [conn.recv() for _ in range(3)]
    if got[2] != "Login %s %s" % (user, password):
        fail("not the user's login: %r" % got[2])
    conn.send("OK")
    conn.send("OK")
    conn.send("Authentication failure")
    if conn.recv() is not None:
        fail("the bot went on after the login was refused")
    server.settimeout(3)
    try:
        server.accept()
        fail("the bot came back after the login was refused")
    except socket.timeout:
        pass
    note("PASS" if not failures else "%d failures" % len(failures))
    sys.exit(1 if failures else 0)


def finish():
    note("PASS" if not failures else "%d failures" % len(failures))
    sys.exit(1 if failures else 0)


def silent(conn, welcome):
    """Says nothing (after a welcome, if `welcome`): the bot must hang up."""
    if welcome:
        login(conn)
        conn.send("Welcome Guest7!")
    pings = 0
    while True:
        line = conn.recv()
        if line is None:
            break
        pings += line == "PING"
    if welcome and pings == 0:
        fail("the bot never pinged")
    finish()


def accept(conn):
    """A NOK answers the line just before it, and only an Accept's refuses a seek."""
    login(conn)
    conn.send("Welcome Guest7!")
    for no, name in ((5, "alice"), (6, "bob"), (7, "carol")):
        conn.send("Seek new %d %s 5 180 2 A 0 21 1 0 0 0 0 " % (no, name))
    line = conn.recv()
    if line != "Accept 5":
        fail("the first seek not accepted: %r" % line)
    conn.send("NOK")  # seek 5 went: the bot tries the next
    line = conn.recv()
    if line != "Accept 6":
        fail("a refused Accept not followed by the next: %r" % line)
    conn.send("Tell <alice> eval")
    line = conn.recv()
    if not (line or "").startswith("Tell alice "):
        fail("the Tell not answered: %r" % line)
    conn.send("NOK")  # the Tell's, not the Accept's
    line = conn.recv(wait=1.5)
    if line:
        fail("a NOK after a Tell was taken for the Accept's: %r" % line)
    conn.sock.close()
    finish()


def main():
    host = os.environ.get("PLAYTAK_FAKE_HOST", "127.0.0.1")
    server = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((host, int(os.environ.get("PLAYTAK_FAKE_PORT", "0"))))
    server.listen(1)
    server.settimeout(60)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)

    mode = sys.argv[3] if len(sys.argv) > 3 else ""
    conn = Conn(server.accept()[0], answer_pings=not mode.startswith("silent"))
    if len(sys.argv) == 6 and mode == "refuse-login":
        refuse_login(conn, server, sys.argv[4], sys.argv[5])
        return
    if mode in ("silent-before-welcome", "silent-after-welcome"):
        silent(conn, mode == "silent-after-welcome")
    if mode == "accept":
        accept(conn)
    token = login(conn)
    conn.send("Welcome Guest7!")
    conn.send("Online 1")
    seek = conn.recv()
    if seek != "Seek 6 60 1 W 0 30 1 0 0 0 0 ":
        fail("the seek: %r" % seek)
    # Hostile and malformed lines: logged and skipped, never a crash.
    conn.send("Garbage \x1b[2J\x07")
    conn.send("Game#1 P Z9")
    conn.send("Seek new x")
    conn.send("Tell <" + "x" * 300 + "> hi")
    conn.send("Shout <a> " + "y" * 5000)
    conn.send("Game#77 Undo")
    # A game the library cannot play (8x8 with 80 stones): resigned at once.
    conn.send("Game Start 99 8 x_yz vs Guest7 black 60 0 80 2 0 0")
    line = conn.recv()
    if line != "Game#99 Resign":
        fail("a game beyond the rules was not resigned: %r" % line)
    conn.send("Seek new 1 Guest7 6 60 1 W 0 30 1 0 0 0 0 ")
    # Another player's seek, which the bot (not accepting) leaves alone.
    conn.send("Seek new 2 someone 5 180 2 A 0 21 1 0 0 0 0 ")
    conn.send("Seek remove 1 Guest7 6 60 1 W 0 30 1 0 0 0 0 ")
    conn.send("GameList Add 1 Guest7 fake_opp 6 60 1 0 30 1 0 0 0 0")
    start = "Game Start 1 6 Guest7 vs fake_opp white 60 0 30 1 0 0"
    conn.send(start)
    clocks(conn)

    bot_moves = 0
    while bot_moves < 6:
        move = bot_move(conn)
        if move.startswith("Game#1"):
            fail("an unasked %r" % move)
            continue
        bot_moves += 1
        if bot_moves == 1:
            # Asked twice at once: answered once (a flood is not echoed).
            conn.send("Tell <fake_opp> eval please")
            conn.send("Tell <fake_opp> eval please")
        if bot_moves == 2:
            conn.send("Game#1 OfferDraw")  # the bot refuses: it says nothing
        if bot_moves == 3:
            conn.send("Game#1 RequestUndo")
            reply = bot_move(conn)
            if reply != "Game#1 RequestUndo":
                fail("the takeback was not granted: %r" % reply)
            else:
                undo()
                clocks(conn)
                conn.send("Game#1 Undo")
                conn.send("OK")
                move = bot_move(conn)  # the bot moves again
                note("# after the takeback: " + move)
        if bot_moves == 4:
            # The server goes away mid-game; the bot comes back and the game
            # is replayed as the real server replays it.
            conn.sock.close()
            conn = Conn(server.accept()[0])
            login(conn, token)
            conn.send(start)
            for _, m in history:
                conn.send("Game#1 " + m)
            clocks(conn)
            conn.send("Message Your game is resumed")
            conn.send("Welcome Guest7!")
            conn.send("GameList Add 1 Guest7 fake_opp 6 60 1 0 30 1 0 0 0 0")
            conn.send("Online 2")
        if bot_moves < 6:
            reply = opponent_move()
            apply(reply)
            clocks(conn)
            conn.send("Game#1 " + reply)
    conn.send("Game#1 Over 1-0")
    conn.send("GameList Remove 1 Guest7 fake_opp 6 60 1 0 30 1 0 0 0 0")
    quit_seen = False
    while True:
        line = conn.recv()
        if line is None:
            break
        if line == "quit":
            quit_seen = True
    if not quit_seen:
        fail("the bot did not say quit")
    if eval_answers != 1:
        fail("the bot told its evaluation %d times, not once" % eval_answers)
    finish()


main()
