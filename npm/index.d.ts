// index.d.ts: TypeScript declarations of the tak-engine package (the API of
// web/tak-engine.js, documented in the project's docs/wasm.md).

/** The rules a position is played under. Positions are TPS text. */
export interface RuleOptions {
  /** Komi in flats, halves allowed (default 0). */
  komi?: number;
  /** Stones per player (default: the size's standard reserve). */
  stones?: number;
  /** Capstones per player (default: the size's standard reserve). */
  capstones?: number;
}

/** A search's limits: the first reached stops it (100,000 nodes when none). */
export interface SearchOptions extends RuleOptions {
  /** 1 (a beginner) to 10 (full strength, the default). */
  level?: number;
  /** Nodes to search, 1 to 2^31 - 1. */
  nodes?: number;
  /** Milliseconds to search, 1 to 2^31 - 1. */
  ms?: number;
}

export interface AnalyzeOptions extends RuleOptions {
  /** Best lines to find (MultiPV), 1 to 16 (default 3). */
  lines?: number;
  /** Plies, 1 to 64. */
  depth?: number;
  nodes?: number;
  ms?: number;
}

/** The engine's answer, for the side to move: `score` in hundredths of a
 * flat, or `win_in` plies (positive: the side to move wins) with score 0. */
export interface SearchResult {
  best: string;
  score: number;
  win_in: number;
  depth: number;
  nodes: number;
  time_ms: number;
  /** The line it expects, in PTN. */
  pv: string[];
}

export interface AnalysisLine {
  multipv: number;
  depth: number;
  seldepth: number;
  score: number;
  win_in: number;
  nodes: number;
  time_ms: number;
  pv: string[];
}

export interface GameResult {
  /** 'R-0', '0-R', 'F-0', '0-F', '1/2-1/2'; '' while the game goes on. */
  code: string;
  text: string;
  /** 0 White, 1 Black, -1 none. */
  winner: number;
  /** The squares of the winning road ([] when none). */
  road: string[];
}

/** A position as the server's states describe one. */
export interface PositionView {
  ply: number;
  turn: number;
  move_number: number;
  /** size² stacks, a1 first along ranks ('12S': a white flat under a black wall). */
  board: string[];
  tps: string;
  stash: unknown;
  flats: unknown;
  tak: unknown;
  [key: string]: unknown;
}

export interface GameGraph {
  /** White's view, one a position, wins as +-2000. */
  scores: number[];
  /** One a position: the plies to a win the search found, negative when Black wins; 0 when none (or the game is over). */
  wins: number[];
  /** '', '?' or '??' a ply. */
  marks: string[];
  /** The engine's move a position. */
  best: string[];
}

export interface PtnPly {
  ptn: string;
  comment: string | null;
  marks: string | null;
}

export interface PtnLine {
  /** '' for the main line; a branch's name ('2w1', '2w1/3b1'). */
  name: string;
  /** The line it leaves: an index in `lines`, -1 for the main line. */
  parent: number;
  /** Its first ply replaces ply `start` (from the game's start) of its parent. */
  start: number;
  preface: string | null;
  plies: PtnPly[];
  result: string;
}

/** A PTN game as a document, branches and notes included. */
export interface PtnDocument {
  tags: [string, string][];
  preface: string | null;
  size: number;
  komi: number;
  stones: number;
  capstones: number;
  tps: string;
  lines: PtnLine[];
}

/** The rules, notation and engine, in WebAssembly. Every method throws an
 * Error saying what was wrong for a bad position, move, PTN or option. */
export declare class TakEngine {
  /** From a URL, the module's bytes, or a compiled WebAssembly.Module. */
  static load(source: string | URL | BufferSource | WebAssembly.Module): Promise<TakEngine>;
  /** The legal moves, long PTN ('a1', 'Sa1', '3c3>12'). */
  legalMoves(tps: string, opts?: RuleOptions): string[];
  /** Plays a move (short or long PTN). */
  play(tps: string, move: string, opts?: RuleOptions): { tps: string; over: boolean };
  /** The move sequences of `depth` plies. */
  perft(tps: string, depth: number, opts?: RuleOptions): bigint;
  /** The engine's move. */
  search(tps: string, opts?: SearchOptions): SearchResult;
  /** The analysis board's search: each line of each completed depth to
   * `onLine`; answers the last depth's lines. */
  analyze(tps: string, opts?: AnalyzeOptions, onLine?: ((line: AnalysisLine) => void) | null): AnalysisLine[];
  /** The position after `ply` plies of a game (start: a TPS, or '' for the empty board of opts.size). */
  view(start: string, plies: string[], ply: number, opts?: RuleOptions & { size?: number }): PositionView;
  /** A whole game judged, every position searched opts.nodes nodes (20,000). */
  graph(start: string, plies: string[], opts?: RuleOptions & { size?: number; nodes?: number }): GameGraph;
  readPtn(text: string): PtnDocument;
  writePtn(doc: PtnDocument): string;
  result(tps: string, opts?: RuleOptions): GameResult;
  /** The TPS of a board set up freely. */
  setup(board: string[], opts?: RuleOptions & { size?: number; turn?: 'white' | 'black'; move_number?: number }): string;
}

/** The engine from `source`, or from the tak.wasm this package ships; its
 * search, analyze, graph and perft refuse absurd limits (RangeError, TypeError). */
export declare function load(source?: string | URL | BufferSource | WebAssembly.Module): Promise<TakEngine>;

declare const _default: { load: typeof load; TakEngine: typeof TakEngine };
export default _default;
