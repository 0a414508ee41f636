#!/usr/bin/env python3
"""Trains askcode's static code embedding (model2vec format) from tokenized pairs.

1. Init: LSA. Each pair is one document (its text and its code together); a randomized SVD of
   the sublinear-tf * idf document-term matrix gives every token a `dims`-vector that already
   places words next to the identifiers they co-occur with.
2. Contrastive training: a sentence vector is the normalised sum of its token rows (exactly what
   the extension computes); InfoNCE with in-batch negatives (temperature 0.05, both directions)
   pulls each text towards its code and away from the batch's other code. Gradients by hand,
   Adam. 2% of the pairs (whole repositories' random sample) are held out to pick the epoch;
   training pairs whose code is identical to a held-out pair's (a docstring's twin, one commit
   message's twin hunks) are dropped from training, so nothing held out is seen.
3. Storage: int8 rows with one float32 scale per row (`embeddings` I8 + `scales` F32).

Usage: train.py --data DIR --model MODEL_DIR [--dims 256] [--epochs 6]
"""
import argparse
import json
import os
import struct
import time

import numpy as np
import scipy.sparse as sp


def load(data):
    flat = np.fromfile(os.path.join(data, 'ids.bin'), dtype=np.int32)
    q_rows, q_cols, c_rows, c_cols, code_key = [], [], [], [], []
    i = at = 0
    n = len(flat)
    while at < n:
        a, b = flat[at], flat[at + 1]
        q = flat[at + 2:at + 2 + a]
        c = flat[at + 2 + a:at + 2 + a + b]
        at += 2 + a + b
        q_rows.append(np.full(len(q), i, np.int32))
        q_cols.append(q)
        c_rows.append(np.full(len(c), i, np.int32))
        c_cols.append(c)
        code_key.append(hash(c.tobytes()))
        i += 1
    return i, np.concatenate(q_rows), np.concatenate(q_cols), np.concatenate(c_rows), np.concatenate(c_cols), code_key


def batches(train, repo_of, B, same_frac, rng):
    """Batches of B pair ids for one epoch. A `same_frac` share of the pairs is batched within its
    repository (the rest, and each repository's remainder, mixed): a batch of one repository's
    code makes its other code the negatives, the choice retrieval faces inside one workspace,
    where a mixed batch is mostly told apart by which project's vocabulary it uses."""
    rng.shuffle(train)
    if same_frac <= 0:
        return [train[s:s + B] for s in range(0, len(train) - B + 1, B)]
    n_same = int(len(train) * same_frac)
    groups = {}
    for i in train[:n_same]:
        groups.setdefault(repo_of[i], []).append(i)
    out, rest = [], list(train[n_same:])
    for g in groups.values():
        full = len(g) // B * B
        out += [np.array(g[s:s + B]) for s in range(0, full, B)]
        rest += g[full:]
    rest = np.array(rest, dtype=train.dtype)
    rng.shuffle(rest)
    out += [rest[s:s + B] for s in range(0, len(rest) - B + 1, B)]
    return [out[k] for k in rng.permutation(len(out))]


def csr(rows, cols, n, v):
    m = sp.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)), shape=(n, v))
    m.sum_duplicates()
    return m


def lsa_init(Q, C, dims, seed):
    D = (Q + C).tocsr().astype(np.float32)
    D.data = 1 + np.log(D.data)
    df = np.asarray((D > 0).sum(0)).ravel()
    idf = np.log((D.shape[0] + 1) / (df + 1)).astype(np.float32)
    D = D @ sp.diags(idf)
    rng = np.random.default_rng(seed)
    k = dims + 16
    # Randomized SVD (Halko et al.) of D^T: term vectors are V_k * sqrt(S_k).
    Y = D.T @ (D @ rng.standard_normal((D.shape[1], k)).astype(np.float32))
    for _ in range(2):
        Y, _ = np.linalg.qr(Y)
        Y = D.T @ (D @ Y)
    Qm, _ = np.linalg.qr(Y)
    # D ~ (D Qm) Qm^T, and the SVD of the small N x k factor gives D's right singular vectors.
    _, s, vbt = np.linalg.svd(D @ Qm, full_matrices=False)
    E = (Qm @ vbt.T)[:, :dims] * np.sqrt(s[:dims])[None, :]
    E = E.astype(np.float32)
    E /= np.linalg.norm(E, axis=1, keepdims=True).mean() + 1e-9
    return E


def encode(M, E):
    u = M @ E
    n = np.linalg.norm(u, axis=1, keepdims=True) + 1e-9
    return u / n, u, n


def recall_at_1(Q, C, E, idx, pool=1000):
    idx = idx[:pool]
    q, _, _ = encode(Q[idx], E)
    c, _, _ = encode(C[idx], E)
    s = q @ c.T
    r1 = float((s.argmax(1) == np.arange(len(idx))).mean())
    ranks = (s > s[np.arange(len(idx)), np.arange(len(idx))][:, None]).sum(1)
    mrr = float((1 / (ranks + 1)).mean())
    return r1, mrr


def quantize_save(E, out, dims):
    scale = np.abs(E).max(1) / 127
    scale[scale == 0] = 1e-8
    q = np.clip(np.round(E / scale[:, None]), -127, 127).astype(np.int8)
    tensors = [('embeddings', 'I8', list(q.shape), q.tobytes()), ('scales', 'F32', [len(scale)], scale.astype('<f4').tobytes())]
    header, off = {}, 0
    for name, dt, shape, data in tensors:
        header[name] = {'dtype': dt, 'shape': shape, 'data_offsets': [off, off + len(data)]}
        off += len(data)
    header['__metadata__'] = {'format': 'askcode-static', 'quantization': 'int8 rows x float32 per-row scale'}
    h = json.dumps(header, separators=(',', ':'))
    h += ' ' * ((8 - (8 + len(h)) % 8) % 8)
    with open(os.path.join(out, 'embeddings.safetensors'), 'wb') as f:
        f.write(struct.pack('<Q', len(h)))
        f.write(h.encode())
        for *_, data in tensors:
            f.write(data)
    return (q.astype(np.float32) * scale[:, None]).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', required=True)
    ap.add_argument('--model', required=True)
    ap.add_argument('--dims', type=int, default=256)
    ap.add_argument('--epochs', type=int, default=6)
    ap.add_argument('--batch', type=int, default=512)
    ap.add_argument('--lr', type=float, default=0.003)
    ap.add_argument('--lr-end', type=float, default=None, help='cosine decay of the learning rate to this value over all epochs (default: constant)')
    ap.add_argument('--tau', type=float, default=0.05)
    ap.add_argument('--seed', type=int, default=13)
    ap.add_argument('--same-repo', type=float, default=0.0, help='share of the pairs batched within their repository (0: all batches mixed)')
    a = ap.parse_args()
    t0 = time.time()
    vocab = len(json.load(open(os.path.join(a.model, 'tokenizer.json')))['model']['vocab'])
    n, qr, qc, cr, cc, code_key = load(a.data)
    Q = csr(qr, qc, n, vocab)
    C = csr(cr, cc, n, vocab)
    keep = (np.asarray(Q.sum(1)).ravel() > 0) & (np.asarray(C.sum(1)).ravel() > 0)
    rng = np.random.default_rng(a.seed)
    ids = np.flatnonzero(keep)
    rng.shuffle(ids)
    hold = ids[: max(1000, len(ids) // 50)]
    train = ids[len(hold):]
    held_code = {code_key[i] for i in hold}
    train = np.array([i for i in train if code_key[i] not in held_code], dtype=ids.dtype)
    repos_file = os.path.join(a.data, 'repos.json')
    repo_of = [r.split(':')[0] for r in json.load(open(repos_file))] if a.same_repo > 0 else None
    print(f'{n} pairs ({len(train)} train, {len(hold)} held out), vocab {vocab}, {time.time() - t0:.0f} s', flush=True)

    E = lsa_init(Q[train], C[train], a.dims, a.seed)
    print(f'LSA init done {time.time() - t0:.0f} s; held-out R@1/MRR in 1000: {recall_at_1(Q, C, E, hold)}', flush=True)

    m = np.zeros_like(E)
    v = np.zeros_like(E)
    b1, b2, step = 0.9, 0.999, 0
    best = (-1, None, 0)
    B = a.batch
    total_steps = a.epochs * (len(train) // B)
    for ep in range(a.epochs):
        loss_sum = 0
        for idx in batches(train, repo_of, B, a.same_repo, rng):
            Qb, Cb = Q[idx], C[idx]
            q, _, qn = encode(Qb, E)
            c, _, cn = encode(Cb, E)
            S = (q @ c.T) / a.tau
            P1 = np.exp(S - S.max(1, keepdims=True))
            P1 /= P1.sum(1, keepdims=True)
            P2 = np.exp(S - S.max(0, keepdims=True))
            P2 /= P2.sum(0, keepdims=True)
            diag = np.arange(B)
            loss_sum += -(np.log(P1[diag, diag] + 1e-12).mean() + np.log(P2[diag, diag] + 1e-12).mean()) / 2
            G = (P1 + P2) / 2
            G[diag, diag] -= 1
            G /= B * a.tau
            dq = G @ c
            dc = G.T @ q
            duq = (dq - q * (q * dq).sum(1, keepdims=True)) / qn
            duc = (dc - c * (c * dc).sum(1, keepdims=True)) / cn
            g = np.asarray(Qb.T @ duq) + np.asarray(Cb.T @ duc)
            step += 1
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            lr = a.lr * min(1.0, step / 100)
            if a.lr_end is not None:
                frac = min(1.0, step / total_steps)
                lr = a.lr_end + (lr - a.lr_end) * 0.5 * (1 + np.cos(np.pi * frac))
            E -= lr * (m / (1 - b1 ** step)) / (np.sqrt(v / (1 - b2 ** step)) + 1e-8)
        r1, mrr = recall_at_1(Q, C, E, hold)
        print(f'epoch {ep + 1}: loss {loss_sum / max(1, len(train) // B):.3f}, held-out R@1 {r1:.3f} MRR {mrr:.3f}, {time.time() - t0:.0f} s', flush=True)
        if mrr > best[0]:
            best = (mrr, E.copy(), ep + 1)
    mrr, E, ep = best
    Eq = quantize_save(E, a.model, a.dims)
    print(f'kept epoch {ep} (held-out MRR {mrr:.3f}); int8 held-out R@1/MRR {recall_at_1(Q, C, Eq, hold)}; total {time.time() - t0:.0f} s', flush=True)
    with open(os.path.join(a.model, 'config.json'), 'w') as f:
        json.dump({'model_type': 'model2vec', 'architectures': ['StaticModel'], 'hidden_dim': a.dims, 'normalize': True,
                   'max_length': 512, 'tokenizer_name': 'askcode-code-wordpiece', 'apply_pca': None,
                   'askcode': {'epochs': ep, 'held_out_mrr_1000': round(mrr, 4), 'pairs': int(n), 'seed': a.seed, 'tau': a.tau}}, f, indent=2)


if __name__ == '__main__':
    main()
