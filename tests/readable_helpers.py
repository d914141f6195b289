"""Measuring what a person at the card table sees: text cut short, small targets, sideways
scrolling, contrast. Each is a script run in the page; each answers with what fails (empty: fine)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

#: Elements whose content is wider than their box (cut, or spilling out), under `selectors`. A
#: chart's SVG is drawn, not laid out in boxes (Chromium's clientWidth of an SVG <text> is not its
#: box's): its labels are held to its edges and apart by scoring/tests/test_browser_chart.py.
CUT = """(selectors) => Array.from(document.querySelectorAll(selectors))
  .filter(el => !(el instanceof SVGElement))
  .filter(el => el.offsetParent !== null && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 0.5)
  .map(el => [el.className, el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40),
    el.scrollWidth, el.clientWidth])"""

#: Visible controls (buttons, links, summaries, chips) smaller than 44 x 44 CSS px.
SMALL = """() => Array.from(document.querySelectorAll('a[href], button, summary, .chip, select, '
    + 'input:not([type=hidden]):not([type=checkbox]):not([type=radio])'))
  .filter(el => el.offsetParent !== null && !el.closest('.visually-hidden, [aria-hidden=true]'))
  .map(el => [el.outerHTML.slice(0, 90), el.getBoundingClientRect()])
  .filter(([html, box]) => box.width < 44 || box.height < 44)
  .map(([html, box]) => [html, Math.round(box.width), Math.round(box.height)])"""

#: Text whose colour against its background is under `least`:1 (WCAG's relative luminance).
LOW_CONTRAST = """(least) => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (let at = el; at; at = at.parentElement) {
      const colour = rgb(getComputedStyle(at).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] > 0)) return colour.slice(0, 3);
    }
    return [255, 255, 255];
  };
  return Array.from(document.querySelectorAll('body *'))
    .filter(el => el.offsetParent !== null && !el.closest('svg, .visually-hidden')
      && Array.from(el.childNodes).some(node => node.nodeType === 3 && node.textContent.trim()))
    .map(el => {
      const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
      return [el.outerHTML.slice(0, 80), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
    })
    .filter(([html, ratio]) => ratio < least)
    .map(([html, ratio]) => [html, Math.round(ratio * 100) / 100]);
}"""


def cut(page: Page, selectors: str) -> list[Any]:
    return list(page.evaluate(CUT, selectors))


def small_controls(page: Page) -> list[Any]:
    return list(page.evaluate(SMALL))


def low_contrast(page: Page, least: float) -> list[Any]:
    return list(page.evaluate(LOW_CONTRAST, least))


def scrolls_sideways(page: Page) -> bool:
    return bool(
        page.evaluate("document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth")
    )


#: Visible elements whose right edge is past `width` CSS px (a phone's browser widens the page to
#: what sticks out, even where the page itself does not scroll): [start of the element's HTML, its
#: right edge].
PAST_THE_EDGE = """(width) => Array.from(document.querySelectorAll('body *'))
  .filter(el => el.getBoundingClientRect().right > width + 0.5 && el.checkVisibility())
  .map(el => [el.outerHTML.slice(0, 90), Math.round(el.getBoundingClientRect().right)])"""


def past_the_edge(page: Page, width: int) -> list[Any]:
    return list(page.evaluate(PAST_THE_EDGE, width))


def font_px(page: Page, selector: str) -> list[float]:
    return [
        float(size)
        for size in page.eval_on_selector_all(
            selector, "els => els.map(el => parseFloat(getComputedStyle(el).fontSize))"
        )
    ]


#: Figures under `selectors` whose glyphs reach out of the box (border excluded) of their nearest
#: `box` ancestor: [text, glyphs' width, box's inner width].
OUTSIDE = """([selectors, box]) => Array.from(document.querySelectorAll(selectors))
  .filter(el => el.offsetParent !== null && el.textContent.trim())
  .map(el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const glyphs = range.getBoundingClientRect();
    const outer = el.closest(box) || el;
    const edge = outer.getBoundingClientRect(), style = getComputedStyle(outer);
    const left = edge.left + parseFloat(style.borderLeftWidth);
    const right = edge.right - parseFloat(style.borderRightWidth);
    const out = glyphs.left < left - 0.5 || glyphs.right > right + 0.5;
    const text = el.textContent.trim().replace(/\\s+/g, ' ');
    return [out, text, Math.round(glyphs.width), Math.round(right - left)];
  })
  .filter(([out]) => out)
  .map(([out, ...rest]) => rest)"""


def outside(page: Page, selectors: str, box: str) -> list[Any]:
    return list(page.evaluate(OUTSIDE, [selectors, box]))


#: Words of a phrase with a number ("64 to go", "-4 žetony") that a line holds alone, away from their
#: number: [the phrase, the lone word]. Each word's glyphs are measured (a range's line boxes).
LONE_WORDS = """(selectors) => Array.from(document.querySelectorAll(selectors))
  .filter(el => el.offsetParent !== null && /\\d/.test(el.textContent))
  .flatMap(el => {
    const lines = new Map();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[^\\s\\u00a0]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const boxes = Array.from(range.getClientRects()).filter(box => box.width > 0);
        if (!boxes.length) continue;
        const top = Math.round(boxes[0].top + boxes[0].height / 2);
        const line = Array.from(lines.keys()).find(y => Math.abs(y - top) < boxes[0].height / 2);
        if (line === undefined) lines.set(top, [match[0]]);
        else lines.get(line).push(match[0]);
      }
    }
    return Array.from(lines.values())
      .filter(words => words.length === 1 && !/\\d/.test(words[0]))
      .map(words => [el.textContent.replace(/\\s+/g, " ").trim(), words[0]]);
  })"""


def lone_words(page: Page, selectors: str) -> list[Any]:
    return list(page.evaluate(LONE_WORDS, selectors))


#: Phrases drawn smaller than their line's size (to keep a number with its word in a narrow column)
#: by more than their box needs: [text, width, box's inner width]; one drawn smaller fills most of it.
SHRUNK_NEEDLESSLY = """([selectors, box]) => Array.from(document.querySelectorAll(selectors))
  .filter(el => el.offsetParent !== null
    && parseFloat(getComputedStyle(el).fontSize)
      < parseFloat(getComputedStyle(el.parentElement).fontSize) - 0.5)
  .map(el => {
    const outer = el.closest(box), style = getComputedStyle(outer);
    const inner = outer.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return [el.textContent, Math.round(el.getBoundingClientRect().width), Math.round(inner)];
  })
  .filter(([, width, inner]) => width < 0.8 * inner)"""


def shrunk_needlessly(page: Page, selectors: str, box: str) -> list[Any]:
    return list(page.evaluate(SHRUNK_NEEDLESSLY, [selectors, box]))


#: Words (and numbers) drawn across two lines ("Tric" / "ks", "+2" / "5"): each run of text without
#: a space, in the visible elements `selectors` match.
BROKEN_WORDS = """selectors => {
  const broken = [];
  document.querySelectorAll(selectors).forEach(el => {
    if (el.offsetParent === null) return;
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      for (const word of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const boxes = Array.from(range.getClientRects()).filter(r => r.width > 0);
        const lines = new Set(boxes.map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  });
  return broken;
}"""


def broken_words(page: Page, selectors: str) -> list[Any]:
    return list(page.evaluate(BROKEN_WORDS, selectors))


#: The left edges of the sides' totals in each row of the history and its heading: drawn left to
#: right in the order of the scoreboard, each row's list increases.
SIDES_LEFT_TO_RIGHT = """() => Array.from(document.querySelectorAll('#history .pad-head, #history .pad-row'))
  .map(row => Array.from(row.querySelectorAll(':scope > .pad-total'))
    .map(total => Math.round(total.getBoundingClientRect().left)))"""


def sides_out_of_order(page: Page) -> list[Any]:
    """Rows whose totals are not left to right, or not each under its own heading (the heading's
    row is the first; a set or conceded hand's row is drawn 4 px in, behind its red edge)."""
    head, *rows = page.evaluate(SIDES_LEFT_TO_RIGHT)
    return [
        row
        for row in [head, *rows]
        if row != sorted(row)
        or len(set(row)) != len(row)
        or any(abs(a - b) > 5 for a, b in zip(row, head, strict=True))
    ]
