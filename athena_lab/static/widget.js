// athena_lab answer widget (anywidget ESM). Everything a document or a model wrote is
// escaped before the tiny Markdown subset below adds its own fixed tags, so no HTML from
// either ever reaches the page as markup.

const OPEN_COMMAND = "athena:open-citation";

export function escapeHtml(text) {
  return String(text ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

// Inline spans of an already-escaped line: code, bold, http(s) links, citation markers.
function inline(escaped, citationIds) {
  const codes = [];
  let out = escaped.replace(/`([^`]+)`/g, (_, code) => {
    codes.push(`<code>${code}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  out = out.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
  out = out.replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g,
    (_, label, href) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${label}</a>`);
  out = out.replace(/\[(\d+)\]/g, (whole, n) =>
    citationIds.has(Number(n))
      ? `<button type="button" class="athena-marker" data-citation="${n}">${n}</button>`
      : whole);
  return out.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
}

// Paragraphs, fenced code blocks, bullet and numbered lists.
export function renderMarkdown(text, citationIds = new Set()) {
  const lines = escapeHtml(text).split("\n");
  const html = [];
  let para = [];
  let list = null;
  const flushPara = () => {
    if (para.length) html.push(`<p>${inline(para.join(" "), citationIds)}</p>`);
    para = [];
  };
  const flushList = () => {
    if (list) html.push(`<${list.tag}>${list.items.map(i => `<li>${inline(i, citationIds)}</li>`).join("")}</${list.tag}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flushPara();
      flushList();
      const code = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      html.push(`<pre><code>${code.join("\n")}</code></pre>`);
      continue;
    }
    const bullet = line.match(/^\s*[-*]\s+(.*)$/);
    const numbered = line.match(/^\s*\d+[.)]\s+(.*)$/);
    if (bullet || numbered) {
      flushPara();
      const tag = bullet ? "ul" : "ol";
      if (list && list.tag !== tag) flushList();
      list = list || { tag, items: [] };
      list.items.push((bullet || numbered)[1]);
    } else if (!line.trim()) {
      flushPara();
      flushList();
    } else {
      flushList();
      para.push(line.trim());
    }
  }
  flushPara();
  flushList();
  return html.join("");
}

// The server labels every citation once (athena_lab/models.py); older saved answers
// without a label get the same style here: 1-based cells, "p. 3", en dashes.
export function citationLabel(c) {
  if (c.label) return c.label;
  if (c.kind === "pdf") return `${c.path} p. ${c.page ?? "?"}`;
  if (c.kind === "notebook") return `${c.path} cell ${c.cell == null ? "?" : c.cell + 1}`;
  if (c.start_line == null) return c.path;
  return c.end_line && c.end_line !== c.start_line
    ? `${c.path}:${c.start_line}\u2013${c.end_line}` : `${c.path}:${c.start_line}`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

// Ask JupyterLab's athena extension to open the source; true when something took it.
export function openInLab(citation) {
  const app = globalThis.jupyterapp;
  if (app?.commands?.hasCommand?.(OPEN_COMMAND)) {
    void app.commands.execute(OPEN_COMMAND, citation);
    return true;
  }
  if (typeof globalThis.dispatchEvent !== "function") return false;
  const event = new CustomEvent(OPEN_COMMAND, { detail: citation, cancelable: true });
  // The extension calls preventDefault() when it opened the source.
  return !globalThis.dispatchEvent(event);
}

function textPreview(citation) {
  const box = element("div", "athena-preview-lines");
  const first = citation.preview_start;
  (citation.preview ?? []).forEach((line, i) => {
    const n = first + i;
    const row = element("div", "athena-line");
    if (citation.start_line != null && n >= citation.start_line && n <= (citation.end_line ?? citation.start_line)) {
      row.classList.add("athena-cited");
    }
    row.append(element("span", "athena-lineno", String(n)), element("span", "athena-linetext", line));
    box.append(row);
  });
  return box;
}

function showPreview(container, citation, model) {
  container.replaceChildren();
  const head = element("div", "athena-preview-head", citationLabel(citation));
  const close = element("button", "athena-preview-close", "×");
  close.type = "button";
  close.title = "Close the preview";
  close.addEventListener("click", () => container.replaceChildren());
  head.append(close);
  container.append(head);
  if (citation.preview?.length && citation.preview_start != null) {
    container.append(textPreview(citation));
  } else {
    const text = citation.preview?.length ? citation.preview.join("\n") : (citation.snippet ?? "");
    container.append(element("pre", "athena-snippet", text));
  }
  if (citation.kind === "pdf") {
    const img = element("img", "athena-page");
    img.alt = `${citation.path}, page ${citation.page}`;
    img.hidden = true;
    container.append(img);
    container.dataset.pending = String(citation.id);
    model.send({ type: "preview", id: citation.id });
  }
}

function sourceList(model, citations, preview) {
  const list = element("ol", "athena-sources");
  for (const c of citations) {
    const item = element("li", "athena-source");
    const chip = element("button", "athena-chip", `[${c.id}] ${citationLabel(c)}`);
    chip.type = "button";
    chip.dataset.citation = String(c.id);
    chip.title = c.heading_path || c.title || c.path;
    const details = element("details", "athena-snippet-box");
    details.append(element("summary", null, "snippet"), element("pre", "athena-snippet", c.snippet ?? ""));
    item.append(chip, details);
    list.append(item);
  }
  list.addEventListener("click", event => {
    const chip = event.target.closest?.(".athena-chip");
    if (chip) openCitation(model, Number(chip.dataset.citation), preview);
  });
  return list;
}

function openCitation(model, id, preview) {
  const citation = (model.get("citations") ?? []).find(c => c.id === id);
  if (!citation) return;
  if (!openInLab(citation)) showPreview(preview, citation, model);
}

function unsupportedBox(claims) {
  const box = element("details", "athena-unsupported");
  box.append(element("summary", null,
    `⚠ ${claims.length} claim${claims.length === 1 ? "" : "s"} not supported by the sources`));
  const list = element("ul");
  for (const claim of claims) {
    list.append(element("li", null, typeof claim === "string" ? claim : (claim.text ?? claim.claim ?? JSON.stringify(claim))));
  }
  box.append(list);
  return box;
}

function traceBox(trace) {
  const box = element("details", "athena-trace");
  box.append(element("summary", null, `trace (${trace.length} step${trace.length === 1 ? "" : "s"})`));
  const list = element("ol");
  for (const step of trace) {
    const input = typeof step.input === "string" ? step.input : JSON.stringify(step.input ?? {});
    const row = element("li");
    row.append(element("code", null, step.tool ?? "step"), document.createTextNode(` ${input} → ${step.summary ?? ""}`));
    list.append(row);
  }
  box.append(list);
  return box;
}

function draw(model, root, preview) {
  const citations = model.get("citations") ?? [];
  const ids = new Set(citations.map(c => c.id));
  const body = element("div", "athena-answer");
  body.innerHTML = renderMarkdown(model.get("answer") ?? "", ids); // escaped first, see renderMarkdown
  const parts = [];
  const question = model.get("question");
  if (question) parts.push(element("div", "athena-question", question));
  parts.push(body);
  if (model.get("streaming")) parts.push(element("span", "athena-streaming", "answering…"));
  const error = model.get("error");
  if (error) parts.push(element("div", "athena-error", error));
  const unsupported = model.get("unsupported") ?? [];
  if (unsupported.length) parts.push(unsupportedBox(unsupported));
  if (citations.length) parts.push(sourceList(model, citations, preview));
  const footer = element("div", "athena-footer");
  const mode = model.get("mode");
  if (mode) footer.append(element("span", "athena-mode", mode));
  // e.g. "hybrid over vectors 2,310 / 7,050, embedding (…)": the search was not full hybrid
  const notice = model.get("notice");
  if (notice) footer.append(element("span", "athena-notice", notice));
  const trace = model.get("trace") ?? [];
  if (trace.length) footer.append(traceBox(trace));
  parts.push(footer);
  root.replaceChildren(...parts);
  body.addEventListener("click", event => {
    const marker = event.target.closest?.(".athena-marker");
    if (marker) openCitation(model, Number(marker.dataset.citation), preview);
  });
}

function render({ model, el }) {
  const root = element("div", "athena-widget-body");
  const preview = element("div", "athena-preview");
  el.classList.add("athena-widget");
  el.append(root, preview);
  const redraw = () => draw(model, root, preview);
  const onMessage = msg => {
    if (msg?.type !== "preview" || String(msg.id) !== preview.dataset.pending) return;
    const img = preview.querySelector("img.athena-page");
    if (msg.png && img) {
      img.src = `data:image/png;base64,${msg.png}`;
      img.hidden = false;
    } else if (msg.error) {
      preview.append(element("div", "athena-error", msg.error));
    }
  };
  const names = ["answer", "citations", "unsupported", "mode", "trace", "streaming", "error", "question", "notice"];
  for (const name of names) model.on(`change:${name}`, redraw);
  model.on("msg:custom", onMessage);
  redraw();
  return () => {
    for (const name of names) model.off(`change:${name}`, redraw);
    model.off("msg:custom", onMessage);
  };
}

export default { render };
