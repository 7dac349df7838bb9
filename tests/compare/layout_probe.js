// Measures the charts of a formatbench report as the browser laid them out;
// check_layout.py evaluates it in the page and checks the result. Boxes of
// texts and marks are in the user units of their <svg> (its viewBox), from
// getBoundingClientRect, so rotated text is measured as drawn.
// Also works on a standalone .svg document (no body: the root is the chart).
(() => {
  const root = document.documentElement, body = document.body || root;
  const bodyRect = body.getBoundingClientRect(), bodyStyle = getComputedStyle(body);
  const out = {
    page: {
      client_width: root.clientWidth,
      scroll_width: root.scrollWidth,
      scroll_height: root.scrollHeight,
      content_left: bodyRect.left + parseFloat(bodyStyle.paddingLeft),
      content_right: bodyRect.right - parseFloat(bodyStyle.paddingRight),
      print: matchMedia("print").matches,
      // Tops in page coordinates (px from the top of the document): where
      // the first table starts (null without one); the charts' are below.
      first_table_top: (() => {
        const t = document.querySelector("table");
        return t ? t.getBoundingClientRect().top + window.scrollY : null;
      })(),
    },
    charts: [],
  };
  const measure = (svg) => {
    const s = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
    const k = view.width / s.width;
    const user = (el) => {
      const r = el.getBoundingClientRect();
      return [(r.left - s.left) * k, (r.top - s.top) * k, (r.right - s.left) * k, (r.bottom - s.top) * k];
    };
    return {
      texts: [...svg.querySelectorAll("text")].map((t) => ({
        cls: t.getAttribute("class") || "", text: t.textContent, box: user(t) })),
      marks: [...svg.querySelectorAll(".bar, .point, .line, .front, .errorbar, .reference")].map((m) => ({
        cls: m.getAttribute("class"), box: user(m) })),
    };
  };
  const svgs = [...document.querySelectorAll("svg")].filter((e) => e.getAttribute("class") === "chart");
  svgs.forEach((svg) => {
    const r = svg.getBoundingClientRect(), figure = svg.closest("figure");
    out.charts.push({
      id: svg.dataset.chart,
      rect: [r.left, r.top, r.right, r.bottom],
      page_top: r.top + window.scrollY,
      view: [svg.viewBox.baseVal.width, svg.viewBox.baseVal.height],
      figure_break_inside: figure ? getComputedStyle(figure).breakInside : "",
      ...measure(svg),
    });
  });
  // Again without the page's style sheets: a chart must not depend on them.
  const sheets = [...document.styleSheets];
  sheets.forEach((sh) => { sh.disabled = true; });
  svgs.forEach((svg, i) => { out.charts[i].unstyled = measure(svg).texts.map((t) => t.box); });
  sheets.forEach((sh) => { sh.disabled = false; });
  return out;
})()
