package dev.polystack.tests;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.PlaywrightAssertions;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the console tests check on a page, in the browser: accessibility by axe-core, keyboard reach, a graph
 * fitted to its canvas; and the code editor, filled as a person would.
 */
final class ConsolePages {

    private ConsolePages() {}

    /** Replaces the text of the code editor labelled {@code label} inside {@code scope}. */
    static void typeInto(Page page, Locator scope, String label, String text) {
        scope.locator("[data-testid='editor-" + label + "'] .cm-content").click();
        page.keyboard().press("Control+A");
        page.keyboard().press("Delete");
        page.keyboard().insertText(text);
    }

    /**
     * No serious or critical accessibility violation on the page as it is, by axe-core (the console's
     * dev dependency) run in the browser: names, roles, contrast, labels, landmarks.
     *
     * <p>Axe indexes the page when its run starts and yields to the page's scripts between rules. A page still
     * rendering (a query answering, the log stream connecting, the graph measuring its nodes) can change or
     * replace an element in between; axe then judges an element it can no longer find and reports it at
     * {@code :root} (CI saw a contrast "violation" there once). So the audit waits until the page has not
     * changed for {@value #QUIET_MS} ms (at most {@value #SETTLE_LIMIT_MS} ms: a page that never stops changing is
     * audited as it is), and a run that reports an element it lost is run again, up to
     * {@value #AUDITS} times. A run whose violations are all on elements it could find is final.
     */
    static void assertAccessible(Page page, String what) {
        // evaluated rather than added as a script tag: the console's Content-Security-Policy refuses inline scripts
        String axe;
        try {
            axe = Files.readString(
                    PlatformProcess.repository().resolve("web-console/node_modules/axe-core/axe.min.js"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        page.evaluate("() => { if (!window.axe) { " + axe + "\n } }");
        String violations = null;
        for (int audit = 1; audit <= AUDITS; audit++) {
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) page.evaluate("""
                    async ([quiet, longest]) => {
                      await new Promise(settled => {
                        let timer = setTimeout(done, quiet);
                        const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet) });
                        const limit = setTimeout(done, longest);
                        function done() { observer.disconnect(); clearTimeout(timer); clearTimeout(limit); settled() }
                        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
                      });
                      const result = await axe.run(document, { resultTypes: ['violations'], elementRef: true });
                      const serious = result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical');
                      const lost = n => !n.element || !n.element.isConnected || n.target.join(' ') === ':root';
                      return { lost: serious.some(v => v.nodes.some(lost)),
                        violations: JSON.stringify(serious.map(v => ({ rule: v.id, impact: v.impact, help: v.help,
                          where: v.nodes.slice(0, 3).map(n => ({ target: n.target.join(' '), lost: lost(n),
                            html: n.html.slice(0, 160), why: n.failureSummary }))}))) } }""", List.of(QUIET_MS, SETTLE_LIMIT_MS));
            violations = (String) result.get("violations");
            if (!Boolean.TRUE.equals(result.get("lost"))) {
                break;
            }
        }
        assertThat(violations)
                .as("serious or critical accessibility violations on " + what)
                .isEqualTo("[]");
    }

    /** How many times {@link #assertAccessible} runs axe while a run reports an element it lost. */
    static final int AUDITS = 5;

    /** How long the page must go unchanged before {@link #assertAccessible} audits it. */
    static final int QUIET_MS = 300;

    /** The longest {@link #assertAccessible} waits for the page to go unchanged. */
    static final int SETTLE_LIMIT_MS = 5_000;

    /**
     * Every visible control of the page can take the keyboard's focus: none is taken out of the tab order,
     * and the first Tab from the top of the page lands on the skip link.
     */
    static void assertKeyboardReachable(Page page, String what) {
        Object unreachable = page.evaluate("""
                () => JSON.stringify([...document.querySelectorAll('a[href], button, input, select, textarea, summary, [role=button], [role=tab]')]
                  .filter(e => e.offsetParent !== null && !e.disabled && e.tabIndex < 0 && e.getAttribute('role') !== 'tab')
                  .map(e => e.outerHTML.slice(0, 120)))""");
        assertThat(unreachable).as("controls out of the tab order on " + what).isEqualTo("[]");
        page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0) }");
        page.locator("body").focus();
        page.keyboard().press("Tab");
        assertThat(page.evaluate("() => document.activeElement?.textContent"))
                .as("first Tab on " + what)
                .isEqualTo("Skip to content");
    }

    /**
     * The page's graph is fitted to its canvas: every node inside it (nothing cut off below the fold), no
     * two nodes overlapping, and the drawing centred in it, as a fit leaves it.
     */
    static void assertFitsItsCanvas(Page page, int nodes) {
        PlaywrightAssertions.assertThat(page.locator(".react-flow__node")).hasCount(nodes);
        try {
            page.waitForFunction("""
                    () => { const c = document.querySelector('.graph').getBoundingClientRect();
                      const boxes = [...document.querySelectorAll('.react-flow__node')].map(n => n.getBoundingClientRect());
                      const inside = boxes.every(b => b.top >= c.top - 1 && b.bottom <= c.bottom + 1 && b.left >= c.left - 1 && b.right <= c.right + 1);
                      const top = Math.min(...boxes.map(b => b.top)), bottom = Math.max(...boxes.map(b => b.bottom));
                      const left = Math.min(...boxes.map(b => b.left)), right = Math.max(...boxes.map(b => b.right));
                      const centred = Math.abs((top + bottom) / 2 - (c.top + c.bottom) / 2) < c.height * 0.05
                        && Math.abs((left + right) / 2 - (c.left + c.right) / 2) < c.width * 0.05;
                      const apart = boxes.every((a, i) => boxes.every((b, j) => j <= i || a.right <= b.left || b.right <= a.left
                        || a.bottom <= b.top || b.bottom <= a.top));
                      return inside && centred && apart }""", null, new Page.WaitForFunctionOptions().setTimeout(15_000));
        } catch (com.microsoft.playwright.TimeoutError e) {
            throw new AssertionError("the graph is not fitted to its canvas: " + page.evaluate("""
                    () => JSON.stringify({ canvas: document.querySelector('.graph').getBoundingClientRect(),
                      nodes: [...document.querySelectorAll('.react-flow__node')].map(n => n.getBoundingClientRect()) })"""), e);
        }
    }

    /** Replaces the editor's text as a person pasting would. */
    static void typeManifest(Page page, String text) {
        typeInto(page, page.locator("main"), "Manifest", text);
    }

    /** The 1-based editor line next to the lint gutter's error marker. */
    static int lineOfLintMarker(Page page) {
        Object line = page.evaluate("""
                () => {
                  const marker = document.querySelector('.cm-lint-marker-error').closest('.cm-gutterElement');
                  const top = marker.getBoundingClientRect().top;
                  const lines = [...document.querySelectorAll('.cm-content .cm-line')];
                  return lines.findIndex(l => Math.abs(l.getBoundingClientRect().top - top) < 3) + 1;
                }""");
        return ((Number) line).intValue();
    }
}
