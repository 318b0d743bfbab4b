// The PTX analysis that tells a captured graph which memory each kernel
// reads and writes (runtime/src/graph/ptx_access.h), on kernels written the
// way LLVM's NVPTX backend prints Halide's: parameters loaded with ld.param,
// made global with cvta, offset, then loaded, stored or updated atomically.
// Every construct the analysis cannot follow must leave the kernel unknown.
#include <gtest/gtest.h>

#include <string>

#include "graph/kernel_sources.h"
#include "graph/ptx_access.h"

using harena::detail::analyze_ptx_entry;
using harena::detail::PtxKernelAccess;

namespace {

// A module of one entry `k` with two pointer parameters (0: the input,
// 1: the output), a 32-bit extent (2) and a float (3), around `body`.
const char *const kHeader = ".version 7.0\n.target sm_70\n.address_size 64\n\n";

// The entry's text, with `$K` standing for its name and `$BODY` for `body`.
const char *const kEntry = R"(	// .globl	$K // -- Begin function $K
.visible .entry $K(
	.param .u64 $K_param_0,
	.param .u64 $K_param_1,
	.param .u32 $K_param_2,
	.param .f32 $K_param_3
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<20>;
	.reg .f32 	%f<9>;
	.reg .b64 	%rd<20>;

// %bb.0:                               // %entry
	ld.param.u64 	%rd1, [$K_param_0];
	ld.param.u64 	%rd2, [$K_param_1];
	ld.param.u32 	%r1, [$K_param_2];
	ld.param.f32 	%f1, [$K_param_3];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mov.u32 	%r2, %tid.x;
	mul.wide.s32 	%rd5, %r2, 4;
	add.s64 	%rd6, %rd3, %rd5;
	add.s64 	%rd7, %rd4, %rd5;
$BODY	ret;
}
	// -- End function
)";

std::string entry_with(const std::string &body, const std::string &k = "k") {
    std::string text = kEntry;
    for (size_t at = text.find("$K"); at != std::string::npos; at = text.find("$K", at + k.size())) {
        text.replace(at, 2, k);
    }
    return text.replace(text.find("$BODY"), 5, body);
}

std::string module_with(const std::string &body) {
    return kHeader + entry_with(body);
}

PtxKernelAccess analyze(const std::string &body) {
    return analyze_ptx_entry(module_with(body), "k");
}

}  // namespace

TEST(PtxAccess, AKernelThatReadsItsInputAndWritesItsOutput) {
    const PtxKernelAccess a = analyze("\tld.global.nc.f32 \t%f2, [%rd6];\n"
                                      "\tmul.rn.f32 \t%f3, %f2, %f1;\n"
                                      "\tst.global.f32 \t[%rd7], %f3;\n");
    ASSERT_TRUE(a.known);
    EXPECT_EQ(a.param_bytes, (std::vector<uint8_t>{8, 8, 4, 4}));
    EXPECT_EQ(a.accessed, 0b11u);
    EXPECT_EQ(a.written, 0b10u);
}

TEST(PtxAccess, AStoreInALoopThroughARegisterDefinedFurtherDown) {
    // %rd9 is stored through before the text defines it from the output
    // pointer, as a loop carries it back: the analysis runs to a fixed point.
    const PtxKernelAccess a = analyze("\tmov.u64 \t%rd9, %rd3;\n"
                                      "$L__BB0_1:\n"
                                      "\tst.global.v2.f32 \t[%rd9+8], {%f1, %f1};\n"
                                      "\tadd.s64 \t%rd10, %rd7, 16;\n"
                                      "\tmov.u64 \t%rd9, %rd10;\n"
                                      "\tsetp.lt.s32 \t%p1, %r2, %r1;\n"
                                      "@%p1 bra \t$L__BB0_1;\n");
    ASSERT_TRUE(a.known);
    EXPECT_EQ(a.written, 0b11u);
}

TEST(PtxAccess, AtomicsAndReductionsWrite) {
    const PtxKernelAccess atom = analyze("\tatom.global.add.f32 \t%f4, [%rd7], %f1;\n");
    ASSERT_TRUE(atom.known);
    EXPECT_EQ(atom.written, 0b10u);
    const PtxKernelAccess red = analyze("\tred.global.add.f32 \t[%rd6], %f1;\n");
    ASSERT_TRUE(red.known);
    EXPECT_EQ(red.written, 0b01u);
}

TEST(PtxAccess, SharedMemoryIsTheBlocksOwn) {
    const PtxKernelAccess a = analyze("\tmov.u64 \t%rd11, _shared_mem;\n"
                                      "\tst.shared.f32 \t[%rd11], %f1;\n"
                                      "\tbar.sync \t0;\n"
                                      "\tld.shared.f32 \t%f5, [%rd11+4];\n"
                                      "\tst.global.f32 \t[%rd7], %f5;\n");
    ASSERT_TRUE(a.known);
    EXPECT_EQ(a.accessed, 0b10u);
    EXPECT_EQ(a.written, 0b10u);
}

TEST(PtxAccess, AGenericStoreThroughAParameterWrites) {
    const PtxKernelAccess a = analyze("\tst.f32 \t[%rd2], %f1;\n");
    ASSERT_TRUE(a.known);
    EXPECT_EQ(a.written, 0b10u);
}

TEST(PtxAccess, WhatCannotBeFollowedLeavesTheKernelUnknown) {
    const char *cases[] = {
        // a store to an address loaded from memory
        "\tld.global.u64 \t%rd12, [%rd6];\n\tst.global.f32 \t[%rd12], %f1;\n",
        // a pointer written to memory
        "\tst.global.u64 \t[%rd7], %rd6;\n",
        // a call
        "\tcall.uni \tfoo, (%rd7);\n",
        // a surface store
        "\tsust.b.2d.b32.trap \t[surf, {%r2, %r2}], {%r1};\n",
        // a parameter's address in a block-local space
        "\tst.local.f32 \t[%rd7], %f1;\n",
    };
    for (const char *body : cases) {
        EXPECT_FALSE(analyze(body).known) << body;
    }
}

TEST(PtxAccess, AMissingEntryIsUnknown) {
    EXPECT_FALSE(analyze_ptx_entry(module_with(""), "kernel_not_there").known);
    EXPECT_FALSE(analyze_ptx_entry(module_with(""), "").known);
    EXPECT_FALSE(analyze_ptx_entry("", "k").known);
}

TEST(PtxAccess, TheEntryIsFoundByItsWholeName) {
    // "k" must not take the body of "k2" before it, nor "k" that of "k_a" after.
    const std::string module = kHeader + entry_with("\tst.global.f32 \t[%rd6], %f1;\n", "k2") +
                               entry_with("\tst.global.f32 \t[%rd7], %f1;\n") +
                               entry_with("\tld.global.u64 \t%rd12, [%rd6];\n\tst.global.f32 \t[%rd12], %f1;\n", "k_a");
    const PtxKernelAccess k = analyze_ptx_entry(module, "k");
    ASSERT_TRUE(k.known);
    EXPECT_EQ(k.written, 0b10u);
    const PtxKernelAccess k2 = analyze_ptx_entry(module, "k2");
    ASSERT_TRUE(k2.known);
    EXPECT_EQ(k2.written, 0b01u);
    EXPECT_FALSE(analyze_ptx_entry(module, "k_a").known);
}

TEST(PtxAccess, ADebugLocationLineHidesNoInstruction) {
    // .loc ends at its line, without ';': the store after it still counts.
    const PtxKernelAccess a = analyze("\t.loc\t1 12 3\n"
                                      "\tst.global.f32 \t[%rd7], %f1;\n"
                                      "\t.loc\t1 13 3\n"
                                      "\tcall.uni \tfoo, (%rd7);\n");
    EXPECT_FALSE(a.known) << "the call after a .loc line was not seen";
    const PtxKernelAccess b = analyze("\t.loc\t1 12 3\n"
                                      "\tst.global.f32 \t[%rd7], %f1;\n");
    ASSERT_TRUE(b.known);
    EXPECT_EQ(b.written, 0b10u);
}

TEST(PtxAccess, AStoreWhoseAddressTheTextDefinesLaterIsFollowed) {
    // The loop's first statement stores through %rd15, defined from the
    // output pointer further down: the first pass sees no parameter in it.
    const PtxKernelAccess a = analyze("$L__BB0_1:\n"
                                      "\tst.global.f32 \t[%rd15], %f1;\n"
                                      "\tadd.s64 \t%rd15, %rd7, 4;\n"
                                      "\tsetp.lt.s32 \t%p1, %r2, %r1;\n"
                                      "@%p1 bra \t$L__BB0_1;\n");
    ASSERT_TRUE(a.known);
    EXPECT_EQ(a.written, 0b10u);
}

TEST(PtxAccess, NamedMemoryIsFollowedAndAModuleWideWriteIsNot) {
    const std::string block = "\t.local .align 8 .b8 \t__local_depot0[8];\n"
                              "\tmov.u64 \t%rd16, __local_depot0;\n"
                              "\tcvta.local.u64 \t%rd17, %rd16;\n"
                              "\tst.u32 \t[%rd17+4], %r1;\n"
                              "\tld.u32 \t%r3, [%rd17+4];\n"
                              "\tst.global.u32 \t[%rd7], %r3;\n";
    const PtxKernelAccess local = analyze(block);
    ASSERT_TRUE(local.known) << "a generic store to the block's own depot";
    EXPECT_EQ(local.written, 0b10u);

    const std::string table = ".global .align 4 .b8 lut[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n\n";
    const PtxKernelAccess reads = analyze_ptx_entry(kHeader + table +
                                                        entry_with("\tmov.u64 \t%rd16, lut;\n"
                                                                   "\tld.global.u32 \t%r3, [%rd16+4];\n"
                                                                   "\tst.global.u32 \t[%rd7], %r3;\n"),
                                                    "k");
    ASSERT_TRUE(reads.known) << "a read of the module's own table";
    EXPECT_EQ(reads.written, 0b10u);
    const PtxKernelAccess writes = analyze_ptx_entry(
        kHeader + table + entry_with("\tmov.u64 \t%rd16, lut;\n\tst.global.u32 \t[%rd16], %r1;\n"), "k");
    EXPECT_FALSE(writes.known) << "a write to memory every kernel of the module can read";
}

TEST(PtxAccess, AReadThroughAPointerLoadedFromMemoryIsNotFollowed) {
    EXPECT_FALSE(analyze("\tld.global.u64 \t%rd12, [%rd6];\n"
                         "\tld.global.f32 \t%f4, [%rd12];\n"
                         "\tst.global.f32 \t[%rd7], %f4;\n")
                     .known);
}

TEST(PtxAccess, TwoInstructionsInOneStatementAreNotFollowed) {
    // A line without its ';' would hide the next instruction.
    EXPECT_FALSE(analyze("\tmov.u32 \t%r5, %r1\n\tst.global.f32 \t[%rd7], %f1;\n").known);
}

// The registry the launch path fills (runtime/src/graph/kernel_sources.h):
// a handle is known only in the context it was noted in, so a handle that a
// destroyed context left behind and another context reuses is not analysed
// with the old PTX.
TEST(KernelSources, AHandleIsKnownOnlyInTheContextItWasNotedIn) {
    static const std::string writes_output = module_with("\tst.global.f32 \t[%rd7], %f1;\n");
    static const std::string writes_input = module_with("\tst.global.f32 \t[%rd6], %f1;\n");
    int module_handle = 0, function_handle = 0;
    void *module = &module_handle, *function = &function_handle;
    harena::detail::note_kernel_module(101, module, writes_output.c_str(), static_cast<int>(writes_output.size()));
    harena::detail::note_kernel_function(101, function, module, "k");
    PtxKernelAccess a;
    ASSERT_TRUE(harena::detail::kernel_access(101, function, &a));
    EXPECT_EQ(a.written, 0b10u);
    EXPECT_FALSE(harena::detail::kernel_access(102, function, &a)) << "another context's function";

    // Context 102 loads other PTX and gets the same handles.
    harena::detail::note_kernel_module(102, module, writes_input.c_str(), static_cast<int>(writes_input.size()));
    harena::detail::note_kernel_function(102, function, module, "k");
    ASSERT_TRUE(harena::detail::kernel_access(102, function, &a));
    EXPECT_EQ(a.written, 0b01u);
    ASSERT_TRUE(harena::detail::kernel_access(101, function, &a));
    EXPECT_EQ(a.written, 0b10u);

    // A function of a module never noted is not known.
    int other_handle = 0;
    harena::detail::note_kernel_function(101, &other_handle, &other_handle, "k");
    EXPECT_FALSE(harena::detail::kernel_access(101, &other_handle, &a));
}
