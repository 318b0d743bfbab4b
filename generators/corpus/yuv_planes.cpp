// RGB to planar YUV 4:2:0 after a 3x3 denoise, as a camera or video encoder
// front end writes it: a full-resolution luma plane and two half-resolution
// chroma planes, three outputs. The CUDA schedule fuses every stage into the
// output tiles: each plane's kernel denoises its tile (and halo) in shared
// memory and converts in registers, so no device buffer lies between stages.
#include "Halide.h"

namespace {

using namespace Halide;

class YuvPlanes : public Generator<YuvPlanes> {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 2>> luma{"luma"};
    Output<Buffer<uint8_t, 2>> chroma_u{"chroma_u"};
    Output<Buffer<uint8_t, 2>> chroma_v{"chroma_v"};

    void generate() {
        clamped = BoundaryConditions::repeat_edge(input);
        // One denoised copy per plane, so that each can live in its own
        // plane's tiles.
        for (const char *plane : {"luma", "u", "v"}) {
            Func d(std::string("denoised_") + plane);
            Expr sum = cast<uint16_t>(0);
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    sum += cast<uint16_t>(clamped(x + dx, y + dy, c)) * ((dx == 0 ? 2 : 1) * (dy == 0 ? 2 : 1));
                }
            }
            d(x, y, c) = cast<uint8_t>((sum + 8) >> 4);
            denoised.push_back(d);
        }
        // BT.601 studio swing, in integers.
        Func dl = denoised[0];
        luma(x, y) = cast<uint8_t>((66 * cast<int32_t>(dl(x, y, 0)) + 129 * cast<int32_t>(dl(x, y, 1)) +
                                    25 * cast<int32_t>(dl(x, y, 2)) + 128) >>
                                   8) +
                     cast<uint8_t>(16);
        chroma_u(x, y) = chroma(denoised[1], -38, -74, 112);
        chroma_v(x, y) = chroma(denoised[2], 112, -94, -18);

        input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
        luma.set_estimates({{0, 1920}, {0, 1080}});
        chroma_u.set_estimates({{0, 960}, {0, 540}});
        chroma_v.set_estimates({{0, 960}, {0, 540}});
    }

    void schedule() {
        input.dim(2).set_bounds(0, 3);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        Func planes[] = {luma, chroma_u, chroma_v};
        for (int p = 0; p < 3; p++) {
            if (get_target().has_gpu_feature()) {
                // A chroma tile covers twice its extent of denoised pixels:
                // 8x8 keeps its block at 18x18 threads, as luma's 16x16.
                const int tile = p == 0 ? 16 : 8;
                planes[p].gpu_tile(x, y, xo, yo, xi, yi, tile, tile);
                denoised[p].compute_at(planes[p], xo).reorder(c, x, y).unroll(c).gpu_threads(x, y);
            } else {
                const int vec = natural_vector_size<uint8_t>();
                planes[p].split(y, yo, yi, 32).parallel(yo).vectorize(x, vec);
                denoised[p].compute_at(planes[p], yo).reorder(c, x, y).unroll(c).vectorize(x, vec);
            }
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func clamped;
    std::vector<Func> denoised;

    // A chroma sample from the 2x2 block it covers, offset to 128.
    Expr chroma(Func d, int wr, int wg, int wb) {
        Expr sum = cast<int32_t>(0);
        for (int dy = 0; dy <= 1; dy++) {
            for (int dx = 0; dx <= 1; dx++) {
                Expr px = 2 * x + dx, py = 2 * y + dy;
                sum += wr * cast<int32_t>(d(px, py, 0)) + wg * cast<int32_t>(d(px, py, 1)) +
                       wb * cast<int32_t>(d(px, py, 2));
            }
        }
        return cast<uint8_t>(clamp(((sum + 512) >> 10) + 128, 0, 255));
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(YuvPlanes, yuv_planes)
