// The server's PiecedDocument (it keeps the edits since the last flat text instead of copying the text at each
// edit) must answer exactly what vscode-languageserver-textdocument's TextDocument answers: both are given the same
// seeded random sequences of changes (incremental and full, batches, CRLF / LF / lone CR, empty and reversed
// ranges, ranges past the end, surrogate pairs) and compared on every read after each step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument, type Position, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { PiecedDocument } from '../../../server/src/lsp/main/pieced-document';
import { prng as rng } from '../../seeded-random';

const PIECES = ['a', 'b', '{', '"', ' ', '\n', '\r\n', '\r', '\u{1F600}', '\uD83D', 'xyz', '\n\n', '\r\r\n'];

function randomText(r: () => number, max: number): string {
  let s = '';
  const n = Math.floor(r() * max);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

/** A position anywhere, past line ends and the last line, negative now and then. */
function randomPosition(r: () => number, doc: TextDocument): Position {
  const x = r();
  if (x < 0.03) return { line: -1, character: Math.floor(r() * 3) };
  if (x < 0.08) return { line: doc.lineCount + Math.floor(r() * 3), character: Math.floor(r() * 5) };
  const line = Math.floor(r() * doc.lineCount);
  const length = doc.offsetAt({ line: line + 1, character: 0 }) - doc.offsetAt({ line, character: 0 });
  return { line, character: Math.floor(r() * (length + 3)) - (r() < 0.03 ? 2 : 0) };
}

function randomChange(r: () => number, doc: TextDocument): TextDocumentContentChangeEvent {
  if (r() < 0.04) return { text: randomText(r, 40) };
  const a = randomPosition(r, doc);
  // Sometimes empty, sometimes reversed (end before start). Not both ends on different lines past the last one:
  // the library then writes its line table with holes and its text with NaN offsets (no client sends that).
  let b = r() < 0.3 ? a : randomPosition(r, doc);
  while (b !== a && a.line >= doc.lineCount && b.line >= doc.lineCount) b = randomPosition(r, doc);
  const text = r() < 0.25 ? '' : randomText(r, r() < 0.1 ? 30 : 4);
  const change: TextDocumentContentChangeEvent = { range: { start: a, end: b }, text };
  if (r() < 0.2) (change as { rangeLength?: number }).rangeLength = 0;
  return change;
}

function compare(seed: number, step: number, want: TextDocument, got: PiecedDocument, r: () => number): void {
  const at = `seed ${seed} step ${step}`;
  assert.equal(got.version, want.version, at);
  assert.equal(got.lineCount, want.lineCount, at);
  const length = want.getText().length;
  assert.equal(got.length, length, at);
  for (let i = 0; i < 12; i++) {
    const offset = Math.floor(r() * (length + 4)) - 2;
    assert.deepEqual(got.positionAt(offset), want.positionAt(offset), `${at} positionAt(${offset})`);
    assert.equal(got.charCodeAt(offset), want.getText().charCodeAt(offset), `${at} charCodeAt(${offset})`);
    const line = Math.floor(r() * (want.lineCount + 4)) - 2;
    assert.deepEqual(got.getLineRange(line), want.getLineRange(line), `${at} getLineRange(${line})`);
    assert.equal(got.getEOLCharacters(line), want.getEOLCharacters(line), `${at} getEOLCharacters(${line})`);
    const p = randomPosition(r, want);
    assert.equal(got.offsetAt(p), want.offsetAt(p), `${at} offsetAt(${JSON.stringify(p)})`);
    const range = { start: p, end: randomPosition(r, want) };
    assert.equal(got.getText(range), want.getText(range), `${at} getText(${JSON.stringify(range)})`);
    const from = Math.floor(r() * (length + 4)) - 2;
    const to = Math.floor(r() * (length + 4)) - 2;
    assert.equal(got.slice(from, to), want.getText().substring(from, to), `${at} slice(${from}, ${to})`);
  }
  // The whole text only now and then: it flattens the pieces, and the paths without it must be covered too.
  if (r() < 0.3) assert.equal(got.getText(), want.getText(), at);
}

test('random edit sequences: every read equals the library TextDocument', () => {
  for (let seed = 1; seed <= 150; seed++) {
    const r = rng(seed);
    const initial = randomText(r, 60);
    const want = TextDocument.create('file:///a', 'psconfig', 1, initial);
    const got = PiecedDocument.create('file:///a', 'psconfig', 1, initial);
    // Some documents read no position before the first edit (line offsets computed during it).
    if (r() < 0.5) compare(seed, 0, want, got, r);
    for (let step = 1; step <= 60; step++) {
      // A batch's later changes are in the coordinates of the text after the earlier ones, as a client sends them.
      const scratch = TextDocument.create('file:///a', 'psconfig', 1, want.getText());
      const batch = Array.from({ length: r() < 0.2 ? 2 + Math.floor(r() * 3) : 1 }, () => {
        const change = randomChange(r, scratch);
        TextDocument.update(scratch, [change], 1);
        return change;
      });
      TextDocument.update(want, batch, step + 1);
      PiecedDocument.update(got, batch, step + 1);
      // Compare with another generator so the sequence of changes does not depend on what is compared.
      compare(seed, step, want, got, rng(seed * 1000 + step));
    }
    assert.equal(got.getText(), want.getText(), `seed ${seed} end`);
  }
});

test('many edits with no read of the whole text: pieces flatten on their own and stay exact', () => {
  const r = rng(7);
  const initial = 'line\r\n'.repeat(50) + 'last';
  const want = TextDocument.create('file:///b', 'json', 1, initial);
  const got = PiecedDocument.create('file:///b', 'json', 1, initial);
  for (let step = 1; step <= 300; step++) {
    const change = randomChange(r, want);
    if (!('range' in change)) continue;
    TextDocument.update(want, [change], step + 1);
    PiecedDocument.update(got, [change], step + 1);
    const p = randomPosition(r, want);
    assert.equal(got.offsetAt(p), want.offsetAt(p), `step ${step}`);
  }
  assert.equal(got.getText(), want.getText());
  assert.equal(got.lineCount, want.lineCount);
});

test('between \\r and \\n, and an edit splitting or joining a CRLF pair', () => {
  const text = 'ab\r\ncd\r\n';
  const want = TextDocument.create('u', 'json', 1, text);
  const got = PiecedDocument.create('u', 'json', 1, text);
  for (let o = -1; o <= text.length + 1; o++) assert.deepEqual(got.positionAt(o), want.positionAt(o));
  const changes: TextDocumentContentChangeEvent[] = [
    { range: { start: { line: 0, character: 2 }, end: { line: 0, character: 2 } }, text: '\r' },
    { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: 'x' },
    { range: { start: { line: 1, character: 2 }, end: { line: 2, character: 0 } }, text: '\r' },
    { range: { start: { line: 9, character: 0 }, end: { line: 9, character: 4 } }, text: '\nend' },
  ];
  for (const [i, c] of changes.entries()) {
    TextDocument.update(want, [c], i + 2);
    PiecedDocument.update(got, [c], i + 2);
    for (let o = -1; o <= want.getText().length + 1; o++) assert.deepEqual(got.positionAt(o), want.positionAt(o));
    assert.equal(got.lineCount, want.lineCount);
    assert.equal(got.getText(), want.getText());
  }
});

test('an edit reads no more than it must: the text is not built until asked for', () => {
  const big = '{\n' + '  "k": "v",\n'.repeat(10000) + '}';
  const doc = PiecedDocument.create('u', 'json', 1, big);
  doc.positionAt(0);
  PiecedDocument.update(
    doc,
    [{ range: { start: { line: 5, character: 3 }, end: { line: 5, character: 3 } }, text: 'x' }],
    2,
  );
  const pending = (doc as unknown as { edits: unknown[] }).edits;
  assert.equal(pending.length, 1, 'the edit is pending, not applied to a copy');
  assert.equal(doc.getText({ start: { line: 5, character: 0 }, end: { line: 6, character: 0 } }), '  "xk": "v",\n');
  assert.equal(doc.length, big.length + 1);
  assert.equal((doc as unknown as { edits: unknown[] }).edits.length, 1);
  assert.equal(doc.getText().length, big.length + 1);
  assert.equal((doc as unknown as { edits: unknown[] }).edits.length, 0, 'the whole text, once built, is kept');
});
