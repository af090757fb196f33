#!/usr/bin/env python3
"""Golden vectors for @diffworld/eval's metrics against the Python reference libraries.

Step 1 (standard library only, already done and committed):
    python3 tools/golden/eval_metrics.py --inputs-only
  writes test-data/golden/eval_metrics/inputs.json (deterministic texts, feature matrices, histograms).

Step 2 (on a host with the reference libraries; run from the repository root):
    pip install sacrebleu==2.4.3 rouge-score==0.1.2 rouge==1.0.1 nltk==3.9.1 scikit-learn numpy mauve-text faiss-cpu
    python3 tools/golden/eval_metrics.py
  reads inputs.json and writes test-data/golden/eval_metrics/expected.json with:
    sacrebleu 13a tokenisation, corpus BLEU-1/4, sentence BLEU-1/4; rouge-score rougeL; PyPI rouge
    rouge-l; NLTK sentence_bleu (method1) Self-BLEU on whitespace tokens; scikit-learn PCA explained
    variance ratios, the 0.9 cut-off and projections; scikit-learn KMeans (Lloyd from given centroids);
    MAUVE's divergence curve / area / frontier integral on given histograms (mauve's own functions);
    full mauve.compute_mauve on the feature matrices (compared with a tolerance: faiss's k-means
    initialisation differs from ours). Libraries that are missing are reported and their section left out.
"""
import argparse
import json
import math
import os
import random
import sys

DIR = os.path.join("test-data", "golden", "eval_metrics")
INPUTS = os.path.join(DIR, "inputs.json")
EXPECTED = os.path.join(DIR, "expected.json")

WORDS = ["the", "cat", "sat", "on", "mat", "door", "is", "open", "closed", "You", "see", "a", "drawer", "1", "2.5", "3,000",
         "key", "mug", "agent", "in", "kitchen", "Nothing", "happens", "error", "404", "ok", "true", "null"]
PUNCT = [".", ",", "!", "?", ":", ";", "-", "(", ")", "\"", "'", "&amp;", "&quot;", "{", "}", "[", "]", "$", "%", "/"]


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(obj, f)
    os.replace(path + ".tmp", path)


def make_inputs():
    rng = random.Random(20261130)

    def sentence():
        out = []
        for _ in range(rng.randint(0, 14)):
            r = rng.random()
            if r < 0.7:
                out.append(rng.choice(WORDS))
            elif r < 0.9:
                out.append(rng.choice(PUNCT))
            else:
                out.append(rng.choice(WORDS) + rng.choice(PUNCT) + rng.choice(WORDS))
        sep = " " if rng.random() < 0.8 else rng.choice(["", "  ", "\n", "\t"])
        return sep.join(out)

    def perturb(s):
        toks = s.split(" ")
        toks = [t for t in toks if rng.random() > 0.2]
        if rng.random() < 0.5:
            toks.insert(rng.randint(0, len(toks)), rng.choice(WORDS))
        return " ".join(toks)

    texts = [sentence() for _ in range(60)] + ['{"a": [1, 2.5], "b": "x-y"}', "It costs $3.50-4.", "A.B.C. d.e", "", "   ", "3-4 5-6"]
    pairs = []
    for i, t in enumerate(texts):
        refs = [perturb(t)] + ([sentence()] if i % 3 == 0 else [])
        pairs.append({"hyp": t, "refs": refs})
    self_bleu_texts = [" ".join(rng.choice(WORDS[:12]) for _ in range(rng.randint(1, 12))) for _ in range(80)]

    def gauss_matrix(n, d, shift):
        return [[rng.gauss(0, 1) + (shift if j == 0 else 0.0) + (2.0 if j == i % d else 0.0) for j in range(d)] for i in range(n)]

    pca_x = gauss_matrix(60, 10, 0.0)
    km_x = gauss_matrix(200, 3, 0.0)
    km_init = [km_x[i][:] for i in (0, 17, 33, 58, 99, 150)]
    p_hist = [rng.random() for _ in range(12)]
    q_hist = [rng.random() if i % 5 else 0.0 for i in range(12)]
    p_hist = [x / sum(p_hist) for x in p_hist]
    q_hist = [x / sum(q_hist) for x in q_hist]
    mauve_q = gauss_matrix(300, 16, 0.0)
    mauve_p = {str(s): gauss_matrix(300, 16, s) for s in (0.0, 0.5, 1.0, 2.0)}
    write_json(INPUTS, {
        "bleu_pairs": pairs, "self_bleu_texts": self_bleu_texts,
        "pca": {"x": pca_x, "explained_variance": 0.9},
        "kmeans": {"x": km_x, "init": km_init},
        "histograms": {"p": p_hist, "q": q_hist},
        "mauve": {"q": mauve_q, "p_by_shift": mauve_p},
    })
    print(f"wrote {INPUTS}")


def expected(inp):
    out = {"versions": {}}
    try:
        import sacrebleu
        from sacrebleu.metrics import BLEU
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
        out["versions"]["sacrebleu"] = sacrebleu.__version__
        tok = Tokenizer13a()
        hyps = [p["hyp"] for p in inp["bleu_pairs"]]
        nref = max(len(p["refs"]) for p in inp["bleu_pairs"])
        streams = [[p["refs"][k] if k < len(p["refs"]) else None for p in inp["bleu_pairs"]] for k in range(nref)]
        out["tokenize13a"] = [tok(h.rstrip()) for h in hyps]
        out["corpus_bleu1"] = BLEU(max_ngram_order=1).corpus_score(hyps, streams).score
        out["corpus_bleu4"] = BLEU().corpus_score(hyps, streams).score
        bleu1 = BLEU(max_ngram_order=1, effective_order=True)
        out["sentence_bleu1"] = [bleu1.sentence_score(p["hyp"], p["refs"]).score for p in inp["bleu_pairs"]]
        out["sentence_bleu4"] = [sacrebleu.sentence_bleu(p["hyp"], p["refs"]).score for p in inp["bleu_pairs"]]
    except ImportError as e:
        print(f"[skip] sacrebleu: {e}", file=sys.stderr)
    try:
        from rouge_score import rouge_scorer
        sc = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
        out["rouge_score_rougeL"] = [sc.score(p["refs"][0], p["hyp"])["rougeL"].fmeasure for p in inp["bleu_pairs"]]
    except ImportError as e:
        print(f"[skip] rouge-score: {e}", file=sys.stderr)
    try:
        from rouge import Rouge
        r = Rouge()
        vals = []
        for p in inp["bleu_pairs"]:
            try:
                vals.append(r.get_scores(p["hyp"] or " ", p["refs"][0] or " ")[0]["rouge-l"]["f"])
            except Exception:
                vals.append(0.0)
        out["pltrdy_rouge_l"] = vals
    except ImportError as e:
        print(f"[skip] rouge: {e}", file=sys.stderr)
    try:
        import nltk
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
        out["versions"]["nltk"] = nltk.__version__
        toks = [t.split() for t in inp["self_bleu_texts"][:500]]
        res = {}
        for n in (2, 3, 4):
            w = tuple(1.0 / n for _ in range(n))
            vals = [sentence_bleu(toks[:i] + toks[i + 1:], toks[i], w, smoothing_function=SmoothingFunction().method1) for i in range(len(toks))]
            res[str(n)] = sum(vals) / len(vals)
        out["self_bleu_whitespace"] = res
    except ImportError as e:
        print(f"[skip] nltk: {e}", file=sys.stderr)
    try:
        import numpy as np
        import sklearn
        from sklearn.cluster import KMeans
        from sklearn.decomposition import PCA
        out["versions"]["sklearn"] = sklearn.__version__
        x = np.asarray(inp["pca"]["x"], dtype=np.float64)
        pca = PCA(n_components=None, whiten=False).fit(x)
        s = np.cumsum(pca.explained_variance_ratio_)
        idx = int(np.argmax(s >= inp["pca"]["explained_variance"]))
        out["pca"] = {"explained_variance_ratio": pca.explained_variance_ratio_.tolist(), "idx": idx,
                      "projected": pca.transform(x)[:, :idx + 1].tolist()}
        kx = np.asarray(inp["kmeans"]["x"], dtype=np.float64)
        init = np.asarray(inp["kmeans"]["init"], dtype=np.float64)
        km = KMeans(n_clusters=len(init), init=init, n_init=1, max_iter=500, tol=0.0, algorithm="lloyd").fit(kx)
        out["kmeans"] = {"labels": km.labels_.tolist(), "inertia": float(km.inertia_), "n_iter": int(km.n_iter_)}
    except ImportError as e:
        print(f"[skip] scikit-learn: {e}", file=sys.stderr)
    try:
        import numpy as np
        from mauve import compute_mauve as cm
        p = np.asarray(inp["histograms"]["p"])
        q = np.asarray(inp["histograms"]["q"])
        w = np.linspace(1e-6, 1 - 1e-6, 25)
        curve = cm.get_divergence_curve_for_multinomials(p, q, w, 5)
        x, y = curve.T
        i1, i2 = np.argsort(x), np.argsort(y)
        from sklearn.metrics import auc
        out["mauve_steps"] = {"curve": curve.tolist(), "mauve": float(0.5 * (auc(x[i1], y[i1]) + auc(y[i2], x[i2]))),
                              "frontier_integral": float(cm.get_fronter_integral(p, q))}
        full = {}
        for shift, pf in inp["mauve"]["p_by_shift"].items():
            r = cm.compute_mauve(p_features=np.asarray(pf), q_features=np.asarray(inp["mauve"]["q"]))
            full[shift] = {"mauve": float(r.mauve), "num_buckets": int(r.num_buckets)}
        out["mauve_full"] = full
    except ImportError as e:
        print(f"[skip] mauve-text: {e}", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inputs-only", action="store_true")
    args = ap.parse_args()
    if args.inputs_only or not os.path.exists(INPUTS):
        make_inputs()
        if args.inputs_only:
            return
    with open(INPUTS) as f:
        inp = json.load(f)
    write_json(EXPECTED, expected(inp))
    print(f"wrote {EXPECTED}")


if __name__ == "__main__":
    main()
