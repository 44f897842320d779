// state.js: everything the page knows, declared here and nowhere else: the
// connection, the Tak game shown (or the sandbox, or the analysis board), the
// TAKAT game, who this browser plays as, the looks. The other modules read
// and write these objects; none keeps state of its own but for timers.
// Each field says which module writes it.

export const app = {
  // connection.js: the socket, its requests waiting for an answer, the
  // server's clock minus this browser's, in ms (game clocks are shown by it),
  // and when the connection was last lost (Date.now())
  ws: null, connected: false, retry: 500, reqs: 0, pending: new Map(), offset: 0, lostAt: 0,
  // game.js: the game open, this page's seat in it, its last state, and a
  // past position shown (null: the position now)
  gameId: null, seat: null, state: null, view: null,
  stale: false, // the state is from before the page joined again (a reconnection): its clocks held till the next comes
  invite: null, // the invitation of a friend's game, shown until the seat is taken
  chat: [], // the messages of the game's room this page may read
  rematchOffer: false, // the opponent offers a rematch
  animate: null, // { ply }: the move to animate on the next drawing
  drawn: null, // { ply, key }: the position last drawn (its line), to animate a step on from it
  // board.js: the piece a click places ('', 'S', 'C'), a stack being moved
  // (a carry, see board.js), the keyboard's square, whether the board's focus
  // came from the pointer, and the board turned around (null: as the seat says)
  piece: '', carry: null, focusSq: 0, boardClicked: false, flip: null,
  // review.js: the ply being stepped to, the page's engine for the review
  // (undefined: not tried yet; null: cannot load), the engine's view of the
  // position shown, and the finished game's graph with the key it is for
  analysis: null, target: null, worker: undefined, graph: null, graphKey: null,
  // sandbox.js: the board edited with the rules off (null: not editing)
  sandbox: null,
  // match.js: the scores of the match's games, as the server last gave them
  matchRows: null,
  // analysis.js: the analysis board (null: not shown)
  analysisBoard: null,
  // lobby.js: the lobby as last sent; the ids of our own open seeks
  lobby: null, mySeeks: new Set(),
  // players.js: who this browser plays as (the server's player, or null), a name being
  // claimed, and an identity secret from a link (#identity=...) to take on once connected
  player: null, claiming: null, linked: null,
  // settings.js: the looks and sounds kept in this browser; what was played, for tests
  wobbly: localStorage.getItem('tak.wobbly') === '1',
  muted: localStorage.getItem('tak.muted') === '1', sounds: [], audio: null,
};

// takat.js: the TAKAT game open (id null: none), this page's seat, its last
// state, the stack chosen to move from, and the invitation shown.
export const takat = { id: null, seat: null, state: null, from: null, invite: null };

// The position drawn: a past one being viewed, or the game's.
export function shown() { return app.view || app.state; }

// Whether a click on the board may make a move now.
export function myTurn() {
  const s = app.state;
  if (app.analysisBoard && !app.sandbox) return !!s && !s.result; // the analysis board: either side moves
  return s && !app.view && !s.result && app.seat && s.turn === app.seat;
}
