#!/usr/bin/env python3
"""PyTorch CUDA on the cases of a `touchstone bench --device cuda` report (issue 20).

    python3 perf/torch_cuda_compare.py BENCH_REPORT.json OUT.json

For each case this script knows how to build (elementwise ops, copies, reductions, scans, softmax,
layer_norm, GEMMs), it makes PyTorch CUDA tensors of the same shape and layout, times the op with
CUDA events around each call (median of the repetitions, after warm-up calls) and writes
{case name: {"median_s": ..., "ours_s": ...}}. It prints one line per case: our time, PyTorch's,
and PyTorch's time over ours (above 1: we are faster). Cases it cannot build are listed, not
guessed. TF32 is off, as in touchstone.
"""
import json
import statistics
import sys

import torch
import torch.nn.functional as F

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
DEV = "cuda"
DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
          "bfloat16": torch.bfloat16, "int32": torch.int32, "int64": torch.int64,
          "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16, "bool": torch.bool}


def rand(shape, dtype):
    if dtype.is_floating_point:
        return torch.rand(shape, device=DEV, dtype=dtype) + 0.5
    if dtype == torch.bool:
        return torch.rand(shape, device=DEV) > 0.5
    return torch.randint(1, 100, shape, device=DEV, dtype=dtype)


def dims(text):
    return [int(x) for x in text.split("x")]


def elementwise(op):
    fn = getattr(torch, op, None) or getattr(F, op, None)
    if fn is None:
        return None
    return fn


REDUCE_DIMS = {"dim1": 1, "dim0": 0, "all_dims": None}


def build(case):
    """A zero-argument callable running the case in PyTorch, or None."""
    op, layout, shape = case["op"], case["layout"], case["shape"]
    dt = DTYPES.get(case["dtype"])
    if dt is None:
        return None
    fam = case["family"]
    parts = shape.split("+")
    try:
        a_shape = dims(parts[0])
    except ValueError:
        return None
    fn = elementwise(op) if fam in ("unary", "binary") else None
    if fam in ("unary", "binary") and fn is None:
        return None
    if fam == "unary":
        x = rand(a_shape, dt)
        if layout == "transposed":
            x = x.t()
        elif layout != "contiguous":
            return None
        return lambda: fn(x)
    if fam == "binary":
        a = rand(a_shape, dt)
        if layout == "contiguous":
            b = rand(a_shape, dt)
        elif layout == "broadcast_row":
            b = rand(dims(parts[1]), dt)
        elif layout == "transposed":
            a, b = a.t(), rand(a_shape, dt)
        elif layout == "scalar_tensor":
            b = rand([], dt)
        elif layout == "permuted_4d":
            a, b = a.permute(0, 2, 3, 1), rand(a_shape, dt)
        else:
            return None
        out = torch.empty(torch.broadcast_shapes(a.shape, b.shape), device=DEV,
                          dtype=torch.result_type(a, b) if op not in ("eq", "lt", "gt", "le", "ge", "ne") else torch.bool)
        try:
            fn(a, b, out=out)
            return lambda: fn(a, b, out=out)
        except (TypeError, RuntimeError):
            return lambda: fn(a, b)
    if op in ("copy_", "contiguous") and fam == "copy":
        n = a_shape
        dst = torch.empty(n, device=DEV, dtype=dt)
        if layout == "contiguous":
            src = rand(n, dt)
        elif layout == "transposed":
            src = rand(n, dt).t()
        elif layout == "expanded_column":
            src = rand([n[0], 1], dt).expand(n)
        elif layout == "expanded_row":
            src = rand([1, n[1]], dt).expand(n)
        elif layout.startswith("convert_from_"):
            src = rand(n, DTYPES[layout[len("convert_from_"):]])
        elif layout.startswith("transposed_convert_from_"):
            src = rand(n, DTYPES[layout[len("transposed_convert_from_"):]]).t()
        else:
            return None
        if op == "contiguous":
            return lambda: src.contiguous()
        return lambda: dst.copy_(src)
    if layout in REDUCE_DIMS and op in ("sum", "mean", "amax", "amin", "prod", "argmax", "argmin",
                                        "var", "std", "norm", "logsumexp", "all", "any"):
        x = rand(a_shape, dt)
        d = REDUCE_DIMS[layout]
        fn = getattr(torch, op)
        if op == "logsumexp":
            return lambda: fn(x, dim=d if d is not None else tuple(range(x.dim())))
        if d is None:
            return lambda: fn(x)
        return lambda: fn(x, dim=d)
    if op == "cumsum" and layout in ("dim0", "dim1"):
        x = rand(a_shape, dt)
        d = 0 if layout == "dim0" else 1
        return lambda: torch.cumsum(x, d)
    if op in ("softmax", "log_softmax"):
        x = rand(a_shape, dt)
        fn = getattr(torch, op)
        return lambda: fn(x, -1)
    if op == "layer_norm" and layout == "last_dim":
        x = rand(a_shape, dt)
        w, b = rand(a_shape[-1:], dt), rand(a_shape[-1:], dt)
        return lambda: F.layer_norm(x, a_shape[-1:], w, b)
    if op in ("mm",) and len(a_shape) == 3 and layout in ("nn", "tn", "nt"):
        m, n, k = a_shape
        a = rand([m, k], dt) if layout[0] == "n" else rand([k, m], dt).t()
        b = rand([k, n], dt) if layout[1] == "n" else rand([n, k], dt).t()
        return lambda: torch.mm(a, b)
    return None


def median_seconds(fn, reps=25):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e) / 1e3)
    return statistics.median(times)


def main():
    report = json.load(open(sys.argv[1]))
    out = {}
    skipped = []
    print(f"{'case':58} {'ours ms':>9} {'torch ms':>9} {'torch/ours':>10}")
    for case in report["cases"]:
        ours = case.get("results", {}).get("optimized", {})
        if ours.get("status") != "ok":
            continue
        try:
            fn = build(case)
        except Exception as ex:  # a shape or dtype torch refuses: listed below
            fn = None
            skipped.append(f"{case['name']} ({ex})")
            continue
        if fn is None:
            skipped.append(case["name"])
            continue
        try:
            t = median_seconds(fn)
        except Exception as ex:
            skipped.append(f"{case['name']} ({ex})")
            continue
        ours_s = ours["median_s"]
        out[case["name"]] = {"median_s": t, "ours_s": ours_s, "bytes": case.get("bytes", 0)}
        print(f"{case['name']:58} {ours_s * 1e3:9.4f} {t * 1e3:9.4f} {t / ours_s:10.2f}")
        torch.cuda.empty_cache()
    ratios = [v["median_s"] / v["ours_s"] for v in out.values() if v["ours_s"] > 0]
    geo = statistics.geometric_mean(ratios) if ratios else float("nan")
    json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(), "cases": out,
               "not_built": skipped}, open(sys.argv[2], "w"), indent=1)
    print(f"{len(out)} cases timed, {len(skipped)} not built; geomean torch/ours {geo:.2f}")


if __name__ == "__main__":
    main()
