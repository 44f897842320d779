// dom.js: the few helpers every part of the page uses to reach and make
// elements: an element by id, an SVG element, the game's message line.

export const $ = (id) => document.getElementById(id);
export const SVGNS = 'http://www.w3.org/2000/svg';

// An SVG element `name` with `attrs`, added to `parent` when given.
export function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// The game's message line (a refusal, a hint); empty to clear it.
export function say(text) { $('message').textContent = text || ''; }
