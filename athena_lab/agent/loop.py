"""One chat turn, owned end to end: retrieval, the model and its tools, citations, memory.

Retrieval runs first, with the question as asked, and its quotes go out at once as the
``sources`` event: what the offline answer shows, on screen in well under a second, before
a model loads, translates or reads (docs/contract.md, "Sources first"). A model's answer
then streams beside them, its ``[n]`` continuing their numbering. The user's question is
stored before anything can fail, the answer with its citations after it is complete. No
agent framework: the step limit, the single system message, marker renumbering and the
unsupported-claim check are all here, in the order they happen.
"""

from __future__ import annotations

import importlib.util
from typing import Any, Generator, Iterator

from athena_lab import events
from athena_lab.agent.attribute import Attributor
from athena_lab.agent.citations import (
    EvidenceItem,
    MarkerRewriter,
    TurnEvidence,
    cited_texts,
)
from athena_lab.agent.corpus import Corpus
from athena_lab.agent.extractive import (
    FILTERED_OUT,
    NO_EVIDENCE,
    Reply,
    candidates,
    cross_language_similarity,
    embedder_similarity,
    extractive_answer,
)
from athena_lab.agent.locate import model_quotes, with_evidence
from athena_lab.agent.hyde import hypothetical
from athena_lab.agent.names import answer_names, missing, sentence_names
from athena_lab.agent.select import LEAD_TOKENS, Selection, checked_lead, choices, chosen_style
from athena_lab.agent.select import messages as selection_messages
from athena_lab.agent.support import Support, unsupported_sentences
from athena_lab.agent.model_work import OWNER, ModelGate
from athena_lab.agent.memory import (
    PastTurn,
    fit_history,
    history_messages,
    past_turns,
    retrieval_query,
    with_context,
)
from athena_lab.agent.prompts import (
    summary_request,
    question_message,
    system_prompt,
)
from athena_lab.agent.providers import (
    Message,
    PromptProgress,
    Provider,
    SamplingParams,
    StreamEnd,
    TextDelta,
    ToolCall,
    ToolCallEvent,
)
from athena_lab.agent.providers.choice import ProviderPlan, local_plan, plan_provider
from athena_lab.agent.tools import Toolbox, trace_hit
from athena_lab.agent.translate import english
from athena_lab.agent.windows import block as passages_block
from athena_lab.agent.windows import tokens, windows
from athena_lab.errors import AthenaError, CatalogError, ProviderError, user_message
from athena_lab.events import Event
from athena_lab.request import AskRequest
from athena_lab.search.hybrid import ChannelStatus
from athena_lab.language import LANGUAGE_NAMES, query_language

EVIDENCE_SHARE = 0.4  # of the context size, for the first retrieval's passages (a remote model)
# A local model on a CPU reads its prompt at 16–33 tokens/s (1.5B on 2 threads): ~1,200
# tokens of passages is 40–75 s before the first word; five passages, one window each.
LOCAL_EVIDENCE_TOKENS = 1200
LOCAL_PASSAGES = 5
# Every tool schema is read with every request; a small model searches again with
# searchDocs and rarely asks for anything else, so a local model is offered that alone.
LOCAL_TOOLS = ("searchDocs",)
HISTORY_LIMIT = 10
LAST_CALL_NOTE = "\n\n(That was the last tool call allowed in this turn: answer now from the evidence.)"
# The prompt-reading speed each model last showed (tokens/s), for the time left before
# llama.cpp's first report of a new prompt.
_READ_RATES: dict[str, float] = {}
# What a user can cause (athena_lab.errors) and the file system: one line for the user.
# Anything else is a bug and is raised as one, not disguised as an answer.
TURN_ERRORS = (AthenaError, OSError)

# The stored mode of an answer cut short by its client (the sidebar offers Retry).
INTERRUPTED = "interrupted"


def run_turn(ws: Corpus, request: AskRequest, history_limit: int = HISTORY_LIMIT,
             gate: ModelGate = OWNER) -> Iterator[Event]:
    """The events of one turn over ``ws`` (the workspace, or a narrower view of it such as
    a public visitor's): start, trace, sources, trace…, compaction?, chunk…, citations,
    done — or error.

    ``request.context`` is what the user attached to the question (a notebook cell, a
    selection): the model sees it with the question and retrieval searches for its words
    too. It is stored with the question, with ``context_label`` (what the front end called
    it), so a reloaded conversation shows it and asks with it again. ``request.k`` passages
    are retrieved first (``search.k`` when unset). ``gate``: whose turn it is, and what model
    work it may cause (agent/model_work.py; a public visitor's is queued behind the owner's).
    """
    question = (request.question or "").strip()
    conversation_id, filters, provider, context = (request.conversation_id, request.filters, request.provider,
                                                   request.context)
    if not question:
        yield events.error("the question is empty: ask something")
        return
    try:
        store = ws.conversations
        if conversation_id and not store.exists(conversation_id):
            yield events.error(f"unknown conversation {conversation_id!r}: start a new one without an id")
            return
        past = past_turns(store.get(conversation_id), history_limit) if conversation_id else []
        plan = plan_provider(ws.config.settings.llm, provider, request.model, request.base_url, request.model_path)
        cid = conversation_id or store.create(question)
        store.add_message(cid, "user", question, filters=filters, context=context, context_label=request.context_label)
    except TURN_ERRORS as exc:
        yield events.error(user_message(exc))
        return
    saved = False
    turn = _Turn(ws, question, filters or {}, request.k or ws.config.settings.search.k, past, plan, context, gate)
    steps: list[dict[str, Any]] = []  # the trace events, stored with the answer
    try:
        yield events.start(cid)  # inside: a client gone at once still leaves the question answered
        for event in turn.run():
            if event.type == "trace":
                steps.append(event.data)
            yield event
        store.add_message(cid, "assistant", turn.answer, turn.citations, turn.unsupported, turn.mode,
                          trace=steps, sources=turn.sources_kept(), not_found=turn.notes.get("not_found"))
        saved = True
        yield Event("done", {"usage": turn.usage, "unsupported": turn.unsupported, "mode": turn.mode,
                             "conversation_id": cid, **turn.notes})
    except TURN_ERRORS as exc:
        yield events.error(user_message(exc))
    except GeneratorExit:
        # The client went away mid-stream (Stop, a reload): keep what it was shown — the
        # quotes and the model's words so far — marked interrupted, so the question does
        # not stay without an answer and a reload shows both again.
        if not saved:
            text, sources = turn.shown()
            store.add_message(cid, "assistant", text, turn.announced(), [], INTERRUPTED, trace=steps,
                              sources=sources)
        raise
    finally:
        if turn.llm is not None and not isinstance(provider, Provider):
            turn.llm.close()


class _Turn:
    """The state of one turn while its events stream."""

    def __init__(self, ws: Corpus, question: str, filters: dict[str, Any], k: int,
                 past: list[PastTurn], plan: ProviderPlan, context: str | None = None,
                 gate: ModelGate = OWNER) -> None:
        self.ws, self.question, self.filters, self.k, self.past, self.plan = ws, question, filters, k, past, plan
        self.context, self.gate = context, gate
        self.llm: Provider | None = None
        self.evidence = TurnEvidence()
        self.rewriter = MarkerRewriter(self.evidence)
        self.text: list[str] = []  # the model's own words, as streamed
        self.usage: dict[str, int] = {}
        self.notes: dict[str, Any] = {}
        self.mode = "extractive"
        self.answer = ""
        self.citations: list[dict[str, Any]] = []
        self.unsupported: list[str] = []
        # The sources event: the offline answer's Markdown, its citations (with the lines
        # that hold each quote), what it quoted by evidence number, and whether a model's
        # answer follows it (else it is the answer).
        self.sources_text = ""
        self.source_citations: list[dict[str, Any]] = []
        self.quotes: list[tuple[int, str]] = []
        self.follows = False
        self.no_evidence: str | None = None  # search's reason for finding nothing ("filters", "index")
        self.channel: ChannelStatus | None = None  # the multilingual vectors' state, when they fell short
        self.translated: str | None = None  # the question in English, when it was in another language
        self.query = question  # what was searched: a follow-up with the words it leans on
        self._cited = 0  # citations announced so far while streaming
        self._known: dict[str, bool] = {}  # names looked up in the folder this turn
        self.reading: list[int] = []  # evidence numbers in the order the model reads them (HyDE's search)

    def run(self) -> Iterator[Event]:
        yield self._retrieve()
        # Nothing indexed passes the filters: say so, whatever answers (a model would only
        # blame the index, or answer from memory with nothing to cite).
        # A visitor's question over its length cap gets no model (agent/model_work.py).
        admitted = self.gate.admits(self.question)
        self.follows = self.plan.model and admitted and self.no_evidence != "filters"
        yield self._sources()
        if self.no_evidence != "filters":
            llm = self.llm = (yield from self._load(self.plan)) if admitted else None
            if llm is not None:
                self.mode = f"{llm.config.kind}:{llm.model}"
            yield from self._translate()
            if llm is not None:
                yield from self._hyde(llm)
                yield from self._converse(llm)
        yield from self._emit(self.rewriter.flush())
        said = "".join(self.text)
        self.answer = said if self.follows else self.sources_text
        quotes = self.quotes + (model_quotes(said, self.evidence) if self.follows else [])
        mapping = self.rewriter.mapping
        self.citations = with_evidence(self.ws, self.rewriter.citations(),
                                       [(mapping[n], q) for n, q in quotes if n in mapping])
        self.unsupported = ([] if self.no_evidence == "filters"  # a notice, not a claim
                            else unsupported_sentences(self.answer, cited_texts(self.rewriter), self._asked(),
                                                       self._across()))
        if self.follows and self.llm is not None:
            self._check_names(self.answer)
        yield Event("citations", {"citations": self.citations})

    # -- what the reader was shown, for an answer cut short --------------------------
    def shown(self) -> tuple[str, str | None]:
        """The stored answer's text and quotes: the model's words and the sources; in
        extractive mode (or before a model wrote) the quotes are the text."""
        said = "".join(self.text) + self.rewriter.flush()
        if self.follows and said:
            return said, self.sources_text or None
        return said or self.sources_text, None

    def sources_kept(self) -> str | None:
        """The quotes stored beside a model's answer (an extractive answer is its quotes)."""
        return self.sources_text or None if self.follows else None

    def announced(self) -> list[dict[str, Any]]:
        """The citations so far: the sources' own (with the lines of their quotes) by number,
        then the ones the model's markers added."""
        located = {c["id"]: c for c in self.source_citations}
        return [located.get(c["id"], c) for c in self.rewriter.citations()]

    # -- retrieval first ----------------------------------------------------------
    def _retrieve(self, also: list[str] | None = None) -> Event:
        """Search for the question (a follow-up with its context) and number what it finds;
        ``also``: more queries fused with it (the question in English). A search after the
        first starts the numbering again: no model has cited anything yet."""
        query = self.query = with_context(retrieval_query(self.question, self.past), self.context)
        kind, prefix = self.filters.get("kind"), self.filters.get("path_prefix")
        result = self.ws.search(query, k=self.k, kind=kind, path_prefix=prefix, also=also or None,
                                paths=self.ws.scope_paths(self.filters))
        if also:
            self.evidence = TurnEvidence()
            self.rewriter = MarkerRewriter(self.evidence)
        hits = [trace_hit(hit, self.evidence.add_hit(hit, query), self.evidence) for hit in result.hits]
        self.notes.pop("degraded", None)
        if result.degraded:
            self.notes["degraded"] = result.degraded
        self.channel = result.channel
        if self.channel is not None and self.channel.state == "building":
            self.notes["building"] = "multilingual"  # the sidebar shows the build's progress under the answer
        self.no_evidence = getattr(result, "no_evidence", None)
        self.notes.pop("no_evidence", None)
        if self.no_evidence:
            self.notes["no_evidence"] = self.no_evidence
        summary = (f"{len(hits)} hit(s) for the question" + (f" ({result.degraded})" if result.degraded else "")
                   if hits else "no hits: the filters exclude every indexed source" if self.no_evidence == "filters"
                   else "no hits: the index has nothing on this")
        shown = {"pathPrefix": prefix, "kind": kind, **{k: self.filters[k] for k in ("collection", "tag", "author", "year")
                                                         if self.filters.get(k)}}
        if self.filters.get("papers"):
            shown["papers"] = len(self.filters["papers"])
        inputs: dict[str, Any] = {"query": query, "filters": shown, "limit": self.k}
        if also:
            inputs["translated"] = also[0]
        return events.trace("searchDocs", inputs, summary, hits=hits)

    def _sources(self) -> Event:
        """The offline answer from the evidence so far, as the ``sources`` event: its quotes
        with ``[n]`` markers, numbered from 1 in the order they are quoted, and their
        citations. The model's markers go through the same rewriter, so they continue this
        numbering."""
        if self.no_evidence == "filters":
            reply = Reply(FILTERED_OUT)
        else:
            reply = extractive_answer(self._picking(), self.evidence.items, self._similarity(),
                                      None if self.translated else self._across())
            if reply.text == NO_EVIDENCE and self.channel is not None:
                reply = Reply(no_channel_evidence(self.question, self.channel))
        self.rewriter = MarkerRewriter(self.evidence)
        self.sources_text = self.rewriter.feed(reply.text) + self.rewriter.flush()
        self.quotes = [(q.number, q.text) for q in reply.quotes]
        mapping = self.rewriter.mapping
        self.source_citations = with_evidence(self.ws, self.rewriter.citations(),
                                              [(mapping[n], q) for n, q in self.quotes if n in mapping])
        self._cited = len(mapping)
        return Event("sources", {"answer": self.sources_text, "citations": self.source_citations,
                                 "answer_follows": self.follows})

    def _load(self, plan: ProviderPlan) -> Generator[Event, None, Provider | None]:
        """Start the plan's model, saying so first when that means reading it into memory
        (seconds; the sources are on screen meanwhile). Returns the provider (None: none)."""
        if not plan.model:
            return None
        if plan.loading:
            yield events.trace("loadModel", {}, "loading the model…")
        return self.gate.wrap(plan.load())

    def _translate(self) -> Iterator[Event]:
        """A question in another language is searched again with its English translation
        (four times the passages found, docs/retrieval.md); when that changes the quotes, a
        second ``sources`` event replaces the first (before any model text)."""
        if query_language(self.query) == "en":
            return
        translator = self.llm
        if translator is None and self.gate.admits(self.query):
            translator = yield from self._load(self._extractive_translator())
        if translator is None:
            return
        yield events.trace("translate", {"language": query_language(self.query)}, "putting the question into English…")
        try:
            self.translated = english(translator, self.query)
        except Exception as exc:  # the question still gets its own search
            self.notes["translation_failed"] = str(exc)
            return
        finally:
            if translator is not self.llm:
                translator.close()  # its server stays loaded for the next question
        if not self.translated:
            return
        before = (self.sources_text, self.source_citations)
        yield self._retrieve(also=[self.translated])
        again = self._sources()
        if (self.sources_text, self.source_citations) != before:
            yield again

    def _extractive_translator(self) -> ProviderPlan:
        """In extractive mode, the bundled local model puts a question into English when it
        is installed (``llm.translate``), since retrieval then finds four times as many
        passages; a plan without a model when it is not."""
        none = ProviderPlan(lambda: None, model=False)
        settings = self.ws.config.settings.llm
        if settings.translate == "off" or settings.provider != "extractive":
            return none
        from athena_lab.agent.providers import bundled

        # the bundled model llm.model names, else the default, else whichever is installed
        preferred = settings.model if settings.model in bundled.MODELS else bundled.DEFAULT_MODEL
        ready = [m for m in sorted(bundled.MODELS.values(), key=lambda m: m.name != preferred)
                 if bundled.installed(m)]
        if not ready or importlib.util.find_spec("xllamacpp") is None:
            return none  # not installed: the original is searched alone, as before
        try:
            plan = local_plan(settings, ready[0].name, None, SamplingParams(temperature=0.0, max_tokens=160))
        except (ProviderError, OSError) as exc:
            self.notes["translation_failed"] = str(getattr(exc, "message", exc))
            return none

        def load() -> Provider | None:
            try:
                return plan.load()
            except (ProviderError, OSError) as exc:
                self.notes["translation_failed"] = str(getattr(exc, "message", exc))
                return None
        return ProviderPlan(load, loading=plan.loading)

    # -- the model and its tools -----------------------------------------------------
    def _passages(self, llm: Provider) -> tuple[str, int, int]:
        """The numbered passages the model reads, how many, and their size in tokens."""
        settings = self.ws.config.settings.llm
        local = llm.config.kind == "local"
        budget = settings.evidence_tokens or (LOCAL_EVIDENCE_TOKENS if local
                                              else int((settings.context_size or 8192) * EVIDENCE_SHARE))
        limit = LOCAL_PASSAGES if local else len(self.evidence.items)
        shown = windows(self._picking(), self._read_first(), int(budget * 3.6), limit, self._similarity())
        text = passages_block(shown)
        return text, len(shown), tokens(text)

    def _read_first(self) -> list[EvidenceItem]:
        """The evidence in the order the model reads it: HyDE's search's when it ran."""
        ordered = [item for item in map(self.evidence.get, self.reading) if item is not None]
        return ordered + [item for item in self.evidence.items if item.number not in self.reading]

    def _hyde(self, llm: Provider) -> Iterator[Event]:
        """``llm.hyde``: search again beside the question (and its English) with a short
        passage the model imagines answering it (agent/hyde.py); a follow-up's passage is
        written with the question before it. The sources are on screen already, so it costs
        the reader no blank screen; what it finds keeps its number or takes the next one,
        and the model reads the passages in its order."""
        if not self.ws.config.settings.llm.hyde or not self.evidence.items:
            return
        before = self.past[-1].question if self.past else None
        try:
            passage = hypothetical(llm, self.translated or self.question, before)
        except Exception as exc:  # the passages found so far still answer
            self.notes["hyde_failed"] = str(exc)[:200]
            return
        if not passage:
            return
        kind, prefix = self.filters.get("kind"), self.filters.get("path_prefix")
        also = [t for t in (self.translated, passage) if t]
        result = self.ws.search(self.query, k=self.k, kind=kind, path_prefix=prefix, also=also,
                                paths=self.ws.scope_paths(self.filters))
        self.reading = [self.evidence.add_hit(hit, self.query) for hit in result.hits]
        hits = [trace_hit(hit, n, self.evidence) for hit, n in zip(result.hits, self.reading)]
        yield events.trace("searchDocs", {"query": self.query, "hypothetical": passage, "limit": self.k},
                           f"{len(hits)} hit(s) for the question and a passage imagined to answer it", hits=hits)

    def _converse(self, llm: Provider) -> Iterator[Event]:
        settings = self.ws.config.settings.llm
        if chosen_style(settings.answer_style, llm.config.kind) == "select":
            yield from self._select(llm)
            return
        context_size = settings.context_size or 8192
        block, shown, size = self._passages(llm)
        root_name = self.ws.root.name
        local = llm.config.kind == "local"
        fitted = fit_history(system_prompt(root_name, None, local) + block, self.question, self.past,
                             context_size, lambda transcript: _summarise(llm, transcript))
        if fitted.compaction:
            yield Event("compaction", fitted.compaction)
        yield events.trace("readPassages", {"passages": shown, "tokens": size},
                           f"reading {shown} passage{'s' if shown != 1 else ''} (≈{size:,} tokens)")
        messages = [Message("system", system_prompt(root_name, fitted.notes, local)), *history_messages(fitted.turns),
                    Message("user", question_message(block, self.question, self.context))]
        toolbox = Toolbox(self.ws, self.evidence, self.filters)
        specs = toolbox.specs(LOCAL_TOOLS if llm.config.kind == "local" else None)
        attributor = Attributor(Support({item.number: item.text for item in self._read_first()[:shown]},
                                        self._asked(), self._across()), self._unknown)
        max_steps = max(1, settings.max_steps)
        for step in range(1, max_steps + 1):
            step_text: list[str] = []
            calls: list[ToolCall] = []
            for item in llm.stream(messages, specs):
                if isinstance(item, TextDelta):
                    step_text.append(item.text)
                    yield from self._emit(self.rewriter.feed(attributor.feed(item.text)))
                elif isinstance(item, ToolCallEvent):
                    calls.append(item.call)
                elif isinstance(item, PromptProgress):
                    yield self._progress(item)
                elif isinstance(item, StreamEnd):
                    self._add_usage(item.usage)
            yield from self._emit(self.rewriter.feed(attributor.flush()))
            self.notes["attributed"] = attributor.added
            if not calls:
                break
            if step == max_steps:
                yield from self._step_limit(max_steps, calls)
                return
            messages.append(Message("assistant", "".join(step_text), tool_calls=calls))
            known = len(self.evidence.items)  # what the tools bring from here on, the model reads
            for n, call in enumerate(calls, 1):
                result = toolbox.call(call.name, call.arguments, call.arguments_error)
                extra = {"hits": result.hits} if result.hits is not None else {}
                yield events.trace(call.name, call.arguments, result.summary, ok=result.ok, step=step, **extra)
                last = step == max_steps - 1 and n == len(calls)
                messages.append(Message("tool", result.for_model() + (LAST_CALL_NOTE if last else ""),
                                        tool_call_id=call.id, name=call.name))
            attributor.add({item.number: item.text for item in self.evidence.items[known:]})

    def _select(self, llm: Provider) -> Iterator[Event]:
        """``llm.answer_style = "select"`` (agent/select.py): the model chooses among the
        numbered evidence sentences and writes a short lead; the chosen ones follow, quoted."""
        items = self._read_first()[:LOCAL_PASSAGES]
        options = choices(candidates(self._picking(), items, self._similarity(), top=len(items)))
        if not options:
            return
        ask = selection_messages(options, self.question)
        yield events.trace("readPassages", {"passages": len({c.number for c in options}),
                                            "tokens": tokens(ask[1].content)},
                           f"choosing among {len(options)} sentences of the passages")
        selection = Selection(options)
        attributor = Attributor(Support({item.number: item.text for item in items}, self._asked(), self._across()),
                                self._unknown)
        written = ""
        for item in llm.stream(ask, None, SamplingParams(max_tokens=LEAD_TOKENS)):
            if isinstance(item, TextDelta):
                written += selection.feed(item.text)
            elif isinstance(item, PromptProgress):
                yield self._progress(item)
            elif isinstance(item, StreamEnd):
                self._add_usage(item.usage)
        lead, lost = checked_lead(written + selection.flush(), self._unknown)
        if lost:
            yield events.trace("checkNames", {"names": lost},
                               f"left out the lead's sentence naming {', '.join(lost)}: not in your documents")
        yield from self._emit(self.rewriter.feed(attributor.feed(lead) + attributor.flush()))
        self.notes["attributed"] = attributor.added
        reply = selection.quotes()
        self.quotes += [(q.number, q.text) for q in reply.quotes]
        lead = "".join(self.text).strip()
        for n, piece in enumerate(reply.pieces):
            yield from self._emit(self.rewriter.feed(("\n\n" if n == 0 and lead else "") + piece))

    def _progress(self, report: PromptProgress) -> Event:
        """llama.cpp's report of how far it has read the prompt, as the reader's bar: the
        tokens it still had to read (its prompt cache skips the rest), and the time left
        at the speed measured so far in this prompt, else at this model's last speed."""
        done, total = max(0, report.processed - report.cached), max(0, report.total - report.cached)
        rate = done / (report.elapsed_ms / 1000) if done and report.elapsed_ms >= 500 else None
        if rate:
            _READ_RATES[self.mode] = rate
        rate = rate or _READ_RATES.get(self.mode)
        eta = round((total - done) / rate, 1) if rate else None
        return Event("progress", {"stage": "reading", "done": done, "total": total, "eta_s": eta})

    def _step_limit(self, max_steps: int, calls: list[ToolCall]) -> Iterator[Event]:
        names = ", ".join(c.name for c in calls)
        self.notes["step_limit"] = max_steps
        yield events.trace("stepLimit", {"max_steps": max_steps},
                           f"stopped after {max_steps} model calls; ignored further calls to {names}", ok=False)
        if not "".join(self.text).strip():
            note = (f"The model reached the step limit ({max_steps} model calls) without answering; "
                    "the quotes from the sources are what the retrieved evidence says.")
            yield from self._emit(self.rewriter.feed(note))

    def _add_usage(self, usage: dict[str, int]) -> None:
        for key, value in usage.items():
            self.usage[key] = self.usage.get(key, 0) + int(value)

    # -- names the folder does not hold (agent/names.py) ----------------------------------
    def _asked(self) -> str:
        """What the user named: the question, its English wording and the attached context."""
        return "\n".join(t for t in (self.question, self.translated, self.context) if t)

    def _found(self, parts: list[str]) -> set[str]:
        todo = [p for p in parts if p not in self._known]
        if todo:
            hits = self.ws.names_found(todo)
            self._known.update((p, p in hits) for p in todo)
        return {p for p in parts if self._known[p]}

    def _unknown(self, sentence: str, defined: set[str]) -> list[str]:
        return [n.written for n in missing(sentence_names(sentence, defined), self._found, self._asked())]

    def _check_names(self, text: str) -> None:
        """``not_found`` in ``done``: each name of the model's text the folder and the question
        lack, with the sentence or code line it stands in, for front ends to mark."""
        lost = missing(answer_names(text), self._found, self._asked())
        self.notes["not_found"] = [{"name": n.written, "sentence": n.where} for n in lost]

    # -- output -------------------------------------------------------------------------
    def _picking(self) -> str:
        """What sentences are matched against: what was searched — a follow-up with the words
        of the question it leans on ("Why is it scaled?" alone names nothing), an attached
        cell's words, which say what "this" is about — in English when it was translated (an
        English embedder scores English sentences against English far better)."""
        return self.translated or self.query

    def _similarity(self) -> Any:
        return embedder_similarity(self.ws.embedder())

    def _across(self) -> Any:
        """The multilingual channel's similarity for a question not in English (the language
        of the question itself, not of an attached cell); None for English, without a built
        channel, or for a channel model the floor was not set on."""
        if query_language(self.question) == "en":
            return None
        try:
            return cross_language_similarity(self.ws.multilingual_embedder())
        except CatalogError:  # the index went away mid-turn: answer without the check
            return None

    def _emit(self, text: str) -> Iterator[Event]:
        if text:
            self.text.append(text)
            yield events.chunk(text)
        if len(self.rewriter.mapping) > self._cited:
            # A marker named a new source: announce the list so far, so front ends make
            # `[n]` a link as it streams. The last `citations` event (with evidence) wins.
            self._cited = len(self.rewriter.mapping)
            yield Event("citations", {"citations": self.announced()})


def no_channel_evidence(question: str, channel: ChannelStatus) -> str:
    """What is true when a question in another language finds nothing to quote and its
    vectors are missing: not that the documents lack it, but that the vectors that match
    it to them are being built, or can be."""
    language = LANGUAGE_NAMES.get(query_language(question), "in another language")
    # One sentence each, opening as every "no evidence" notice does: a notice, not a claim.
    if channel.state == "building":
        return (f"The index has no evidence for this question yet: it looks {language}, and the vectors that "
                f"match such questions to the documents are being built ({channel.done:,} of "
                f"{channel.total:,} so far), so ask again when they are done.")
    if channel.state == "partial":
        return (f"The index has no evidence for this question in the part built so far: it looks {language}, "
                f"and {channel.done:,} of {channel.total:,} of the vectors that match such questions to "
                "the documents are built, so run `athena index --multilingual` to finish them and ask again.")
    return (f"The index has no evidence for this question yet: it looks {language}, and the vectors that "
            "match such questions to the documents are not built, so run `athena index --multilingual` "
            "(JupyterLab and `athena serve` build them on the first such question) and ask again.")


def _summarise(llm: Provider, transcript: str) -> str:
    request = [Message(m["role"], m["content"]) for m in summary_request(transcript)]
    return llm.complete(request, sampling=SamplingParams(max_tokens=256)).text
