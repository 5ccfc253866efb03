// The Tigadi tablebase explorer. It holds no game rules: the board comes from
// /api/v1/{rules}/board, the start of a game and every legal move, with the
// position it leads to and its values, from /api/v1/{rules}/explore, and the rule
// sets with tables from /api/v1/rulesets.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

const state = {
  rules: "tigadi",
  board: null,          // the board answer for the rule set
  line: [],             // positions from the first one shown, the current one at `at`
  moves: [],            // moves played between them (line[i] --moves[i]--> line[i+1])
  at: 0,
  answer: null,         // the explore answer for line[at]
  selected: [],         // points clicked on the board so far
  pending: 0,           // generation counter to drop stale answers
};

async function api(path) {
  const r = await fetch(path);
  const body = await r.json().catch(() => ({ error: "HTTP " + r.status }));
  if (!r.ok) throw new Error(body.error || "HTTP " + r.status);
  return body;
}

const enc = encodeURIComponent;

async function loadBoard() {
  state.board = await api(`/api/v1/${enc(state.rules)}/board`);
}

// Shows the position line[at]: asks the server, draws, lists the moves.
async function show() {
  const gen = ++state.pending;
  const pos = state.line[state.at];
  $("error").textContent = "";
  let a;
  try {
    a = await api(`/api/v1/${enc(state.rules)}/explore?position=${enc(pos)}`);
  } catch (e) {
    if (gen === state.pending) { $("error").textContent = e.message; state.answer = null; }
    return;
  }
  if (gen !== state.pending) return;
  state.answer = a;
  state.selected = [];
  if (a.rules !== state.rules) { state.rules = a.rules; $("rules").value = a.rules; }
  const url = `?rules=${enc(state.rules)}&position=${enc(a.position)}`;
  history.replaceState(null, "", url);
  render();
  maybeComputer();
}

function category(m) {
  if (m.value === null || m.value === undefined) return "unknown";
  return m.category || m.value;
}

// A value in the toolkit's words (docs/USAGE.md, "Depths in words"): the depth to
// win first where it is known ("wins in 7 turns"), then the depth to capture
// ("captures in 3"); the class under the 100-turn rule where it is not the value.
function describe(m) {
  if (m.value === null || m.value === undefined) return "?";
  const turns = (n) => `${n} turn${n === 1 ? "" : "s"}`;
  const cat = category(m);
  let s = cat === m.value ? m.value : cat.replace("-", " ");
  if (m.dtw && m.value !== "draw") {
    s = `${m.value === "win" ? "wins" : "loses"} in ${turns(m.dtw)}` + (cat === m.value ? "" : ` (${cat.replace("-", " ")})`);
  }
  if (m.dtc && m.value !== "draw") {
    s += ` · ${m.value === "loss" ? "opponent captures" : "captures"} in ${m.dtc}`;
  }
  if (m.dtc100 !== null && m.dtc100 !== undefined && (m.category === "cursed-win" || m.category === "blessed-loss" || m.dtc100 !== m.dtc)) s += ` · DTC₁₀₀ ${m.dtc100}`;
  // Under Lasker's rule the depth under the rule counts to the next capture or
  // placement (DTZ₁₀₀), another depth than the DTC: always shown.
  if (m.dtz100 !== null && m.dtz100 !== undefined) s += ` · DTZ₁₀₀ ${m.dtz100}`;
  return s;
}

function render() {
  const a = state.answer;
  $("position").textContent = a.position;
  $("input").value = a.position;
  const side = a.side === "bone" ? "Bone" : "Seed";
  const st = $("status");
  st.textContent = "";
  if (a.result.state !== "in_progress") {
    st.textContent = "Game over: " + a.result.text;
  } else {
    // Under Lasker's rule a player with gotis in hand may also slide: the moves
    // say so (the page holds no rules).
    const slides = a.moves.some((m) => m.move.includes("-"));
    // A position that may slide is no placing phase: it is named by its hands.
    const verb = a.phase === "placing" ? (slides ? "place or move" : "place") : "move";
    const hands = `hands ${a.bone_hand}–${a.seed_hand}`;
    const where = a.phase !== "placing"
      ? `moving phase, ${a.quiet_turns} quiet turn${a.quiet_turns === 1 ? "" : "s"}`
      : slides ? hands : `placing phase, ${hands}`;
    st.append(`${side} to ${verb} (${where}): `);
    const v = document.createElement("span");
    v.className = category(a);
    v.id = "value";
    v.textContent = a.known ? describe(a) : "value unknown";
    st.append(v);
  }
  const comp = $("computer").value;
  $("note").textContent = a.known || a.result.state !== "in_progress" ? "" :
    (a.unknown || "values unknown") + (comp ? " — the computer plays any legal move here." : "");
  const list = $("moves");
  list.textContent = "";
  for (const m of a.moves) {
    const li = document.createElement("li");
    li.className = "move " + category(m);
    li.dataset.move = m.move;
    li.dataset.next = m.next;
    const name = document.createElement("span");
    name.className = "mv";
    name.textContent = m.move;
    const val = document.createElement("span");
    val.className = "value";
    val.textContent = describe(m);
    li.append(name, val);
    li.addEventListener("click", () => play(m));
    list.append(li);
  }
  const line = state.moves.map((m, i) => (i === state.at - 1 ? `[${m}]` : m)).join(" ");
  $("line").textContent = line ? "Line: " + line : "";
  $("back").disabled = state.at === 0;
  $("forward").disabled = state.at >= state.line.length - 1;
  drawBoard();
}

function drawBoard() {
  const svg = $("board");
  svg.textContent = "";
  const b = state.board, a = state.answer;
  if (!b || !a) return;
  const at = {};
  for (const p of b.points) at[p.name] = p;
  const el = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    svg.append(e);
    return e;
  };
  for (const [p, q] of b.connections) {
    el("line", { class: "conn", x1: at[p].x, y1: at[p].y, x2: at[q].x, y2: at[q].y });
  }
  const targets = new Set(movesMatching(state.selected).map((m) => pointsOf(m.move)[state.selected.length]).filter(Boolean));
  // While placing, each empty point shows the value of the best placement there
  // (the moves come best first; a placement with a capture choice counts as one;
  // slides, under Lasker's rule, are picked by their goti and not marked).
  const marks = {};
  if (a.phase === "placing" && a.known && state.selected.length === 0) {
    for (const m of a.moves) {
      if (m.move.includes("-")) continue;
      const to = pointsOf(m.move)[0];
      if (!(to in marks)) marks[to] = m;
    }
  }
  // The last slide as a dashed line under the points (a placement's capture is
  // no path); it takes no clicks, so the point a goti just left stays clickable.
  const lastMove = state.at > 0 ? state.moves[state.at - 1] : "";
  const last = lastMove.includes("-") ? pointsOf(lastMove) : [];
  if (last.length > 1) {
    const p = at[last[0]], q = at[last[1]];
    el("line", { class: "last", x1: p.x, y1: p.y, x2: q.x, y2: q.y });
  }
  // The point of the last capture, ringed.
  const taken = lastMove.includes("x") ? lastMove.split("x")[1] : null;
  if (taken && at[taken]) {
    el("circle", { class: "captured", cx: at[taken].x, cy: at[taken].y, r: 0.36, "data-captured": taken });
  }
  const bone = new Set(a.bone), seed = new Set(a.seed);
  // Files along the bottom, ranks down the left, as the point names give them.
  const files = {}, ranks = {};
  for (const p of b.points) { files[p.x] = p.name[0]; ranks[p.y] = p.name.slice(1); }
  for (const x in files) el("text", { class: "label", x: +x - 0.06, y: 6.62 }).textContent = files[x];
  for (const y in ranks) el("text", { class: "label", x: -0.6, y: +y + 0.07 }).textContent = ranks[y];
  for (const p of b.points) {
    const side = bone.has(p.name) ? "bone" : seed.has(p.name) ? "seed" : null;
    const sel = state.selected.includes(p.name) ? " selected" : "";
    const tgt = targets.has(p.name) ? " target" : "";
    const m = marks[p.name];
    if (m) {
      const mark = el("circle", { class: `mark ${category(m)}`, cx: p.x, cy: p.y, r: 0.22, "data-mark": p.name, "data-value": m.value, "data-dtc": m.dtc === null ? "" : m.dtc, "data-dtw": m.dtw === null || m.dtw === undefined ? "" : m.dtw });
      const t = document.createElementNS(SVG, "title");
      t.textContent = `${m.move}: ${describe(m)}`;
      mark.append(t);
    }
    const c = side
      ? el("circle", { class: `goti ${side}${tgt}${sel}`, cx: p.x, cy: p.y, r: 0.3, "data-point": p.name })
      : el("circle", { class: `pt${tgt}${sel}`, cx: p.x, cy: p.y, r: tgt ? 0.14 : 0.09, "data-point": p.name });
    c.addEventListener("click", () => clickPoint(p.name));
    if (m) {
      el("text", { class: "markv", x: p.x, y: p.y - 0.27, "data-mark-text": p.name }).textContent = shortValue(m);
    }
  }
}

// A value in a few characters for the board: W7 (wins in 7 turns, the depth to
// win where known), W·c3 (captures in 3, without DTW tables), D, L12.
function shortValue(m) {
  if (m.value === null || m.value === undefined) return "?";
  const letter = { win: "W", draw: "D", loss: "L" }[m.value] || "?";
  if (m.dtw !== null && m.dtw !== undefined && m.value !== "draw") return letter + m.dtw;
  return letter + (m.dtc === null || m.dtc === undefined ? "" : "·c" + m.dtc);
}

// The point names a move string mentions, in order (d5, a1-a4, a1-a4xg7, d5xg7).
function pointsOf(move) {
  return move === "pass" ? [] : move.split(/[-x]/);
}

function movesMatching(selected) {
  if (!state.answer || selected.length === 0) return [];
  return state.answer.moves.filter((m) => {
    const pts = pointsOf(m.move);
    return selected.every((p, i) => pts[i] === p);
  });
}

// Clicking points picks a move: its points in order (from, to, captured goti).
function clickPoint(name) {
  const sel = state.selected.concat([name]);
  const matching = movesMatching(sel);
  if (matching.length === 0) {
    state.selected = movesMatching([name]).length ? [name] : [];
  } else {
    const exact = matching.filter((m) => pointsOf(m.move).length === sel.length);
    if (exact.length === 1 && matching.length === 1) return play(exact[0]);
    state.selected = sel;
  }
  drawBoard();
  for (const li of $("moves").children) {
    li.style.outline = movesMatching(state.selected).some((m) => m.move === li.dataset.move) ? "2px solid #1b5fd1" : "";
  }
}

function play(m) {
  state.line = state.line.slice(0, state.at + 1);
  state.moves = state.moves.slice(0, state.at);
  state.line.push(m.next);
  state.moves.push(m.move);
  state.at++;
  show();
}

let computerTimer = null;
function maybeComputer() {
  clearTimeout(computerTimer);
  const a = state.answer;
  const comp = $("computer").value;
  if (!a || !comp || a.side !== comp || a.result.state !== "in_progress" || a.moves.length === 0) return;
  if (state.at < state.line.length - 1) return; // looking back through the line
  computerTimer = setTimeout(() => {
    // Best first when the tables know the values; any legal move otherwise.
    const m = a.known ? a.moves[0] : a.moves[Math.floor(Math.random() * a.moves.length)];
    if (state.answer === a) play(m);
  }, 500);
}

function start(position) {
  state.line = [position];
  state.moves = [];
  state.at = 0;
  show();
}

// A new game: the server says where a game of the current rule set starts.
async function newGame() {
  try {
    const a = await api(`/api/v1/${enc(state.rules)}/explore`);
    start(a.position);
  } catch (e) {
    $("error").textContent = e.message;
  }
}

// Lists the rule sets the server has tables for, then the presets.
async function loadRuleSets() {
  const names = [];
  try {
    const r = await api("/api/v1/rulesets");
    for (const s of r.rulesets) names.push(s.name);
  } catch (e) {
    $("error").textContent = e.message;
  }
  for (const p of ["tigadi", "navakankari", "morris", "morabaraba", "lasker"]) if (!names.includes(p)) names.push(p);
  const list = $("rulesets");
  list.textContent = "";
  for (const n of names) {
    const o = document.createElement("option");
    o.value = n;
    list.append(o);
  }
  return names;
}

// Switches to rule set `rules` (any name the server takes, pieces=N included);
// false, with the server's reason shown, when it takes none.
async function setRules(rules) {
  const before = state.rules, board = state.board;
  state.rules = rules;
  $("rules").value = rules;
  try {
    await loadBoard();
    return true;
  } catch (e) {
    $("error").textContent = e.message;
    state.rules = before;
    state.board = board;
    $("rules").value = before;
    return false;
  }
}

$("goto").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("input").value.trim();
  if (!text) return newGame();
  if (text.includes("/")) return start(text);
  // A game record: the server replays it (an illegal move is named); the page
  // then shows it from its start, with Back and Forward through every move.
  try {
    await api(`/api/v1/${enc(state.rules)}/explore?record=${enc(text)}`);
    const moves = text.split(/\s+/).map((t) => t.replace(/^\d+\.+/, "")).filter((t) => t);
    const first = await api(`/api/v1/${enc(state.rules)}/explore`);
    const line = [first.position];
    for (let i = 1; i <= moves.length; i++) {
      const a = await api(`/api/v1/${enc(state.rules)}/explore?record=${enc(moves.slice(0, i).join(" "))}`);
      line.push(a.position);
    }
    state.line = line;
    state.moves = moves;
    state.at = 0;
    show();
  } catch (e) {
    $("error").textContent = e.message;
  }
});
// The box is a textarea, so a pasted record keeps its line breaks (a one-line
// input would drop them and join the last move of a line to the next line's
// first); Enter still goes, Shift+Enter starts a new line.
$("input").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
    ev.preventDefault();
    $("goto").requestSubmit();
  }
});
$("rules").addEventListener("change", async () => {
  const rules = $("rules").value.trim();
  if (rules && rules !== state.rules && await setRules(rules)) newGame();
});
$("back").addEventListener("click", () => { if (state.at > 0) { state.at--; show(); } });
$("forward").addEventListener("click", () => { if (state.at < state.line.length - 1) { state.at++; show(); } });
$("start").addEventListener("click", () => newGame());
$("computer").addEventListener("change", () => { render(); maybeComputer(); });

(async function init() {
  const q = new URLSearchParams(location.search);
  const names = await loadRuleSets();
  if (!(await setRules(q.get("rules") || names[0] || "tigadi"))) await setRules("tigadi");
  if (q.get("position")) start(q.get("position"));
  else newGame();
})();
