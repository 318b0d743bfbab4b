// A sliding window with folded storage: the intermediate's allocation is a
// small circular buffer whose size does not follow the output's height.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class StorageFolding : public Generator<StorageFolding> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        blurx(x, y) = in(x - 1, y) + in(x, y) * k + in(x + 1, y);
        output(x, y) = blurx(x, y - 1) + blurx(x, y) + blurx(x, y + 1);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        if (get_target().has_gpu_feature()) {
            root_stage(blurx, get_target(), x, y);
            output_stage(output, get_target(), x, y);
        } else {
            blurx.store_root().compute_at(output, y).fold_storage(y, 4);
        }
    }

private:
    Func blurx{"blurx"};
};

HALIDE_REGISTER_GENERATOR(StorageFolding, storage_folding)
