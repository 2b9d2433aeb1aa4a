// linalg cases: mm in three layouts, bmm, matmul (batched, folded onto mm), addmm, dot, mv,
// outer. FLOPs are 2 per multiply-add.
#include "perf/catalog.h"

namespace ts::perf {
namespace {

BenchCase linalg_case(const char* op, ScalarType t, std::string shape, std::string layout,
                      double bytes, double flops, std::vector<OpId> ops) {
  return make_case("linalg", op, t, std::move(shape), std::move(layout), bytes, flops,
                   std::move(ops));
}

}  // namespace

void add_linalg_cases(CaseList& list) {
  const DTypeSet fl = DTypeSet::floating();
  // Square GEMM side: the reference set's naive loops take ~3 s at 512 (Note [Slow calls]).
  const int64_t m = list.quick() ? 128 : 512;
  const int64_t batch = list.quick() ? 16 : 64, bm = list.quick() ? 64 : 128;
  const int64_t vn = list.quick() ? 1024 : 4096;  // matrix-vector side
  const double dm = static_cast<double>(m);
  for (ScalarType t : list.dtypes(fl)) {
    const double mat = nbytes(m * m, t);
    for (const char* layout : {"nn", "tn", "nt"}) {
      const std::string_view l(layout);
      BenchCase c =
          linalg_case("mm", t, shape_str({m, m, m}), layout, 3 * mat, 2 * dm * dm * dm, {OpId::mm});
      c.setup = [=]() -> std::function<void()> {
        Tensor a = make_input({m, m}, t), b = make_input({m, m}, t), o = empty({m, m}, t);
        if (l[0] == 't') a = a.t();
        if (l[1] == 't') b = b.t();
        return [=] { mm_out(o, a, b); };
      };
      list.add(std::move(c));
    }
    const double bmat = nbytes(batch * bm * bm, t);
    const double bflops = 2.0 * batch * bm * bm * bm;
    const std::string bshape = std::to_string(batch) + "x(" + shape_str({bm, bm, bm}) + ")";
    BenchCase b = linalg_case("bmm", t, bshape, "contiguous", 3 * bmat, bflops, {OpId::bmm});
    b.setup = [=]() -> std::function<void()> {
      Tensor x = make_input({batch, bm, bm}, t), y = make_input({batch, bm, bm}, t);
      Tensor o = empty({batch, bm, bm}, t);
      return [=] { bmm_out(o, x, y); };
    };
    list.add(std::move(b));

    // matmul of a batch against one matrix folds the batch into the rows of one mm.
    BenchCase mt = linalg_case("matmul", t, bshape, "broadcast_rhs", 2 * bmat + nbytes(bm * bm, t),
                               bflops, {OpId::mm});
    mt.setup = [=]() -> std::function<void()> {
      Tensor x = make_input({batch, bm, bm}, t), y = make_input({bm, bm}, t);
      return [=] { (void)matmul(x, y); };
    };
    list.add(std::move(mt));

    BenchCase am = linalg_case("addmm", t, shape_str({m, m, m}), "beta1_alpha1", 4 * mat,
                               2 * dm * dm * dm + 2 * dm * dm, {OpId::addmm});
    am.setup = [=]() -> std::function<void()> {
      Tensor c0 = make_input({m, m}, t), a = make_input({m, m}, t), b2 = make_input({m, m}, t);
      Tensor o = empty({m, m}, t);
      return [=] { addmm_out(o, c0, a, b2); };
    };
    list.add(std::move(am));

    const double dv = static_cast<double>(vn);
    BenchCase mv_c = linalg_case("mv", t, shape_str({vn, vn}), "contiguous",
                                 nbytes(vn * vn + 2 * vn, t), 2 * dv * dv, {OpId::mv});
    mv_c.setup = [=]() -> std::function<void()> {
      Tensor a = make_input({vn, vn}, t), v = make_input({vn}, t), o = empty({vn}, t);
      return [=] { mv_out(o, a, v); };
    };
    list.add(std::move(mv_c));

    BenchCase outer_c = linalg_case("outer", t, shape_str({vn, vn}), "contiguous",
                                    nbytes(vn * vn + 2 * vn, t), dv * dv, {OpId::outer});
    outer_c.setup = [=]() -> std::function<void()> {
      Tensor a = make_input({vn}, t), v = make_input({vn}, t), o = empty({vn, vn}, t);
      return [=] { outer_out(o, a, v); };
    };
    list.add(std::move(outer_c));

    const int64_t dn = list.numel();
    BenchCase dot_c = linalg_case("dot", t, std::to_string(dn), "contiguous", nbytes(2 * dn + 1, t),
                                  2.0 * dn, {OpId::dot});
    dot_c.setup = [=]() -> std::function<void()> {
      Tensor a = make_input({dn}, t), v = make_input({dn}, t);
      return [=] { (void)dot(a, v); };
    };
    list.add(std::move(dot_c));
  }
}

}  // namespace ts::perf
