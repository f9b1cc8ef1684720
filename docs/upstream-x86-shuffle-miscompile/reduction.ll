; ModuleID = 'red.ll'
source_filename = "LLVMDialectModule"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr noundef captures(none)) #0

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) #1

; Function Attrs: nounwind memory(readwrite, target_mem0: none, target_mem1: none)
define void @__posenc_run_entry(ptr readnone captures(none) %0, ptr readonly captures(none) %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10, i64 %11, i64 %12, ptr readnone captures(none) %13, ptr writeonly captures(none) %14, i64 %15) #2 {
.preheader.preheader:
  %16 = tail call dereferenceable_or_null(256) ptr @malloc(i64 256)
  %17 = ptrtoint ptr %16 to i64
  %18 = add i64 %17, 63
  %19 = and i64 %18, -64
  %20 = inttoptr i64 %19 to ptr
  store <32 x float> splat (float 0xFFF0000000000000), ptr %20, align 64
  br label %.preheader

.preheader:                                       ; preds = %.preheader, %.preheader.preheader
  %21 = phi i1 [ false, %.preheader ], [ true, %.preheader.preheader ]
  %22 = phi i64 [ 2, %.preheader ], [ 0, %.preheader.preheader ]
  %.idx = mul nuw nsw i64 %22, 336
  %23 = getelementptr i8, ptr %1, i64 %.idx
  %24 = load <7 x float>, ptr %23, align 32
  %25 = getelementptr i8, ptr %23, i64 28
  %26 = load <7 x float>, ptr %25, align 4
  %27 = getelementptr i8, ptr %23, i64 56
  %28 = load <7 x float>, ptr %27, align 8
  %29 = getelementptr i8, ptr %23, i64 84
  %30 = load <7 x float>, ptr %29, align 4
  %31 = getelementptr i8, ptr %23, i64 112
  %32 = load <7 x float>, ptr %31, align 16
  %33 = getelementptr i8, ptr %23, i64 140
  %34 = load <7 x float>, ptr %33, align 4
  %35 = getelementptr i8, ptr %23, i64 168
  %36 = load <7 x float>, ptr %35, align 8
  %37 = getelementptr i8, ptr %23, i64 196
  %38 = load <7 x float>, ptr %37, align 4
  %39 = getelementptr i8, ptr %23, i64 224
  %40 = load <7 x float>, ptr %39, align 32
  %41 = getelementptr i8, ptr %23, i64 252
  %42 = load <7 x float>, ptr %41, align 4
  %43 = shufflevector <7 x float> %42, <7 x float> zeroinitializer, <24 x i32> <i32 poison, i32 poison, i32 poison, i32 poison, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %44 = getelementptr i8, ptr %23, i64 280
  %45 = load <7 x float>, ptr %44, align 8
  %46 = getelementptr i8, ptr %23, i64 308
  %47 = load <7 x float>, ptr %46, align 4
  %48 = or disjoint i64 %22, 1
  %.idx2 = mul nuw nsw i64 %48, 336
  %49 = getelementptr i8, ptr %1, i64 %.idx2
  %50 = load <7 x float>, ptr %49, align 16
  %51 = getelementptr i8, ptr %49, i64 28
  %52 = load <7 x float>, ptr %51, align 4
  %53 = getelementptr i8, ptr %49, i64 56
  %54 = load <7 x float>, ptr %53, align 8
  %55 = getelementptr i8, ptr %49, i64 84
  %56 = load <7 x float>, ptr %55, align 4
  %57 = getelementptr i8, ptr %49, i64 112
  %58 = load <7 x float>, ptr %57, align 32
  %59 = getelementptr i8, ptr %49, i64 140
  %60 = load <7 x float>, ptr %59, align 4
  %61 = shufflevector <7 x float> %60, <7 x float> zeroinitializer, <24 x i32> <i32 poison, i32 poison, i32 poison, i32 poison, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %62 = getelementptr i8, ptr %49, i64 168
  %63 = load <7 x float>, ptr %62, align 8
  %64 = getelementptr i8, ptr %49, i64 196
  %65 = load <7 x float>, ptr %64, align 4
  %66 = getelementptr i8, ptr %49, i64 224
  %67 = load <7 x float>, ptr %66, align 16
  %68 = getelementptr i8, ptr %49, i64 252
  %69 = load <7 x float>, ptr %68, align 4
  %70 = getelementptr i8, ptr %49, i64 280
  %71 = load <7 x float>, ptr %70, align 8
  %72 = getelementptr i8, ptr %49, i64 308
  %73 = load <7 x float>, ptr %72, align 4
  %74 = shufflevector <7 x float> %73, <7 x float> zeroinitializer, <24 x i32> <i32 poison, i32 poison, i32 poison, i32 poison, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %.idx3 = mul nuw nsw i64 %22, 48
  %75 = getelementptr i8, ptr %20, i64 %.idx3
  %76 = getelementptr i8, ptr %75, i64 16
  %77 = load <4 x float>, ptr %76, align 16
  %78 = getelementptr i8, ptr %75, i64 32
  %.idx4 = mul nuw nsw i64 %48, 48
  %79 = getelementptr i8, ptr %20, i64 %.idx4
  %80 = getelementptr i8, ptr %79, i64 16
  %81 = getelementptr i8, ptr %79, i64 32
  %82 = shufflevector <7 x float> %24, <7 x float> zeroinitializer, <4 x i32> <i32 0, i32 7, i32 poison, i32 poison>
  %83 = shufflevector <7 x float> %24, <7 x float> zeroinitializer, <4 x i32> <i32 2, i32 9, i32 poison, i32 poison>
  %84 = shufflevector <7 x float> zeroinitializer, <7 x float> %26, <4 x i32> <i32 3, i32 10, i32 poison, i32 poison>
  %85 = shufflevector <7 x float> zeroinitializer, <7 x float> %26, <4 x i32> <i32 5, i32 12, i32 poison, i32 poison>
  %86 = shufflevector <7 x float> %28, <7 x float> zeroinitializer, <4 x i32> <i32 0, i32 poison, i32 poison, i32 poison>
  %87 = shufflevector <4 x float> %82, <4 x float> %86, <4 x i32> <i32 0, i32 1, i32 4, i32 poison>
  %88 = insertelement <4 x float> %83, float 0.000000e+00, i64 2
  %89 = insertelement <4 x float> %84, float 0.000000e+00, i64 0
  %90 = extractelement <7 x float> %28, i64 4
  %91 = insertelement <4 x float> %85, float 0.000000e+00, i64 0
  %92 = shufflevector <7 x float> %30, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 poison, i32 3>
  %93 = insertelement <4 x float> zeroinitializer, float %90, i64 2
  %94 = shufflevector <7 x float> %30, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 6, i32 poison>
  %95 = shufflevector <7 x float> %32, <7 x float> %34, <4 x i32> <i32 0, i32 7, i32 poison, i32 poison>
  %96 = shufflevector <7 x float> zeroinitializer, <7 x float> %34, <4 x i32> <i32 1, i32 8, i32 poison, i32 poison>
  %97 = shufflevector <7 x float> %32, <7 x float> %34, <4 x i32> <i32 2, i32 9, i32 poison, i32 poison>
  %98 = shufflevector <7 x float> zeroinitializer, <7 x float> %34, <4 x i32> <i32 3, i32 10, i32 poison, i32 poison>
  %99 = extractelement <7 x float> %34, i64 0
  %100 = shufflevector <7 x float> zeroinitializer, <7 x float> %34, <4 x i32> <i32 5, i32 12, i32 poison, i32 poison>
  %101 = shufflevector <7 x float> zeroinitializer, <7 x float> %34, <4 x i32> <i32 6, i32 13, i32 poison, i32 poison>
  %102 = shufflevector <7 x float> %36, <7 x float> zeroinitializer, <4 x i32> <i32 0, i32 poison, i32 poison, i32 poison>
  %103 = shufflevector <4 x float> %95, <4 x float> %102, <4 x i32> <i32 0, i32 1, i32 4, i32 poison>
  %104 = insertelement <4 x float> %96, float 0.000000e+00, i64 0
  %105 = shufflevector <7 x float> %36, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 2, i32 poison>
  %106 = shufflevector <4 x float> %97, <4 x float> %105, <4 x i32> <i32 0, i32 1, i32 6, i32 poison>
  %107 = insertelement <4 x float> %98, float 0.000000e+00, i64 0
  %108 = insertelement <4 x float> %100, float 0.000000e+00, i64 0
  %109 = insertelement <4 x float> %101, float 0.000000e+00, i64 0
  %110 = shufflevector <7 x float> %38, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 1, i32 poison, i32 poison>
  %111 = insertelement <4 x float> zeroinitializer, float %99, i64 1
  %112 = shufflevector <7 x float> %40, <7 x float> zeroinitializer, <4 x i32> <i32 0, i32 7, i32 poison, i32 poison>
  %113 = shufflevector <7 x float> zeroinitializer, <7 x float> %42, <4 x i32> <i32 3, i32 10, i32 poison, i32 poison>
  %114 = shufflevector <7 x float> %40, <7 x float> zeroinitializer, <4 x i32> <i32 5, i32 12, i32 poison, i32 poison>
  %115 = insertelement <4 x float> %112, float 0.000000e+00, i64 2
  %116 = shufflevector <7 x float> %45, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 1, i32 poison, i32 poison>
  %117 = shufflevector <4 x float> zeroinitializer, <4 x float> %116, <4 x i32> <i32 0, i32 1, i32 5, i32 poison>
  %118 = shufflevector <7 x float> %45, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 2, i32 poison>
  %119 = shufflevector <4 x float> zeroinitializer, <4 x float> %118, <4 x i32> <i32 0, i32 1, i32 6, i32 poison>
  %120 = insertelement <4 x float> %113, float 0.000000e+00, i64 0
  %121 = insertelement <4 x float> %114, float 0.000000e+00, i64 2
  %122 = shufflevector <7 x float> %47, <7 x float> zeroinitializer, <4 x i32> <i32 0, i32 poison, i32 poison, i32 poison>
  %123 = shufflevector <7 x float> %47, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 2, i32 poison>
  %124 = shufflevector <24 x float> zeroinitializer, <24 x float> %43, <24 x i32> <i32 0, i32 28, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %125 = shufflevector <7 x float> %50, <7 x float> zeroinitializer, <4 x i32> <i32 0, i32 7, i32 poison, i32 poison>
  %126 = shufflevector <7 x float> %50, <7 x float> zeroinitializer, <4 x i32> <i32 1, i32 8, i32 poison, i32 poison>
  %127 = shufflevector <7 x float> zeroinitializer, <7 x float> %52, <4 x i32> <i32 2, i32 9, i32 poison, i32 poison>
  %128 = shufflevector <7 x float> zeroinitializer, <7 x float> %52, <4 x i32> <i32 3, i32 10, i32 poison, i32 poison>
  %129 = insertelement <4 x float> %125, float 0.000000e+00, i64 2
  %130 = shufflevector <7 x float> %54, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 1, i32 poison, i32 poison>
  %131 = shufflevector <4 x float> %126, <4 x float> %130, <4 x i32> <i32 0, i32 1, i32 5, i32 poison>
  %132 = insertelement <4 x float> %127, float 0.000000e+00, i64 0
  %133 = insertelement <4 x float> %128, float 0.000000e+00, i64 0
  %134 = shufflevector <7 x float> %54, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 5, i32 poison, i32 poison>
  %135 = shufflevector <4 x float> zeroinitializer, <4 x float> %134, <4 x i32> <i32 0, i32 1, i32 5, i32 poison>
  %136 = shufflevector <7 x float> %56, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 2, i32 poison>
  %137 = shufflevector <7 x float> %58, <7 x float> zeroinitializer, <4 x i32> <i32 1, i32 8, i32 poison, i32 poison>
  %138 = shufflevector <7 x float> %58, <7 x float> zeroinitializer, <4 x i32> <i32 5, i32 12, i32 poison, i32 poison>
  %139 = shufflevector <7 x float> %63, <7 x float> zeroinitializer, <4 x i32> <i32 0, i32 poison, i32 poison, i32 poison>
  %140 = shufflevector <4 x float> zeroinitializer, <4 x float> %139, <4 x i32> <i32 0, i32 1, i32 4, i32 poison>
  %141 = insertelement <4 x float> %137, float 0.000000e+00, i64 2
  %142 = shufflevector <7 x float> %63, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 2, i32 poison>
  %143 = shufflevector <4 x float> zeroinitializer, <4 x float> %142, <4 x i32> <i32 0, i32 1, i32 6, i32 poison>
  %144 = insertelement <4 x float> %138, float 0.000000e+00, i64 2
  %145 = shufflevector <7 x float> %65, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 2, i32 poison>
  %146 = shufflevector <24 x float> zeroinitializer, <24 x float> %61, <24 x i32> <i32 0, i32 28, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %147 = shufflevector <7 x float> %65, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 6, i32 poison>
  %148 = shufflevector <7 x float> %67, <7 x float> zeroinitializer, <4 x i32> <i32 0, i32 7, i32 poison, i32 poison>
  %149 = shufflevector <7 x float> %67, <7 x float> zeroinitializer, <4 x i32> <i32 1, i32 8, i32 poison, i32 poison>
  %150 = shufflevector <7 x float> zeroinitializer, <7 x float> %69, <4 x i32> <i32 2, i32 9, i32 poison, i32 poison>
  %151 = shufflevector <7 x float> zeroinitializer, <7 x float> %69, <24 x i32> <i32 6, i32 13, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %152 = insertelement <4 x float> %148, float 0.000000e+00, i64 2
  %153 = insertelement <4 x float> %149, float 0.000000e+00, i64 2
  %154 = insertelement <4 x float> %150, float 0.000000e+00, i64 0
  %155 = shufflevector <7 x float> %71, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 5, i32 poison, i32 poison>
  %156 = shufflevector <4 x float> zeroinitializer, <4 x float> %155, <4 x i32> <i32 0, i32 1, i32 5, i32 poison>
  %157 = shufflevector <7 x float> %73, <7 x float> zeroinitializer, <4 x i32> <i32 poison, i32 poison, i32 poison, i32 3>
  %158 = shufflevector <24 x float> zeroinitializer, <24 x float> %74, <24 x i32> <i32 0, i32 1, i32 2, i32 28, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %159 = shufflevector <24 x float> %151, <24 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 26, i32 27, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %160 = shufflevector <4 x float> %87, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %161 = shufflevector <4 x float> %103, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %162 = shufflevector <24 x float> %161, <24 x float> %160, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %163 = shufflevector <4 x float> %115, <4 x float> %122, <24 x i32> <i32 0, i32 1, i32 2, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %164 = shufflevector <24 x float> %163, <24 x float> %162, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %165 = shufflevector <4 x float> %129, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %166 = shufflevector <24 x float> %165, <24 x float> %164, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %167 = shufflevector <4 x float> %140, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %168 = shufflevector <24 x float> %167, <24 x float> %166, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %169 = shufflevector <4 x float> %152, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 4, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %170 = shufflevector <24 x float> %169, <24 x float> %168, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 0, i32 1, i32 2, i32 3>
  %171 = shufflevector <4 x float> %104, <4 x float> %110, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %172 = shufflevector <24 x float> %171, <24 x float> zeroinitializer, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %173 = shufflevector <4 x float> %117, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %174 = shufflevector <24 x float> %173, <24 x float> %172, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %175 = shufflevector <4 x float> %131, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %176 = shufflevector <24 x float> %175, <24 x float> %174, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %177 = shufflevector <4 x float> %141, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %178 = shufflevector <24 x float> %177, <24 x float> %176, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %179 = shufflevector <4 x float> %153, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %180 = shufflevector <24 x float> %179, <24 x float> %178, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 0, i32 1, i32 2, i32 3>
  %181 = shufflevector <4 x float> %88, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %182 = shufflevector <4 x float> %106, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %183 = shufflevector <24 x float> %182, <24 x float> %181, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %184 = shufflevector <4 x float> %119, <4 x float> %123, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %185 = shufflevector <24 x float> %184, <24 x float> %183, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %186 = shufflevector <4 x float> %132, <4 x float> %136, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %187 = shufflevector <24 x float> %186, <24 x float> %185, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %188 = shufflevector <4 x float> %143, <4 x float> %145, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %189 = shufflevector <24 x float> %188, <24 x float> %187, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %190 = shufflevector <4 x float> %154, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %191 = shufflevector <24 x float> %190, <24 x float> %189, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 0, i32 1, i32 2, i32 3>
  %192 = shufflevector <4 x float> %89, <4 x float> %92, <24 x i32> <i32 0, i32 1, i32 2, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %193 = shufflevector <4 x float> %107, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %194 = shufflevector <24 x float> %193, <24 x float> %192, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %195 = shufflevector <4 x float> %120, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %196 = shufflevector <24 x float> %195, <24 x float> %194, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %197 = shufflevector <4 x float> %133, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %198 = shufflevector <24 x float> %197, <24 x float> %196, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %199 = shufflevector <24 x float> zeroinitializer, <24 x float> %198, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %200 = shufflevector <4 x float> zeroinitializer, <4 x float> %157, <24 x i32> <i32 0, i32 1, i32 2, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %201 = shufflevector <24 x float> %200, <24 x float> %199, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 0, i32 1, i32 2, i32 3>
  %202 = shufflevector <4 x float> %93, <4 x float> %111, <24 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %203 = shufflevector <24 x float> %124, <24 x float> %202, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %204 = shufflevector <24 x float> zeroinitializer, <24 x float> %203, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %205 = shufflevector <24 x float> %146, <24 x float> %204, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %206 = shufflevector <24 x float> %158, <24 x float> %205, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 0, i32 1, i32 2, i32 3>
  %207 = shufflevector <4 x float> %91, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %208 = shufflevector <4 x float> %108, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %209 = shufflevector <24 x float> %208, <24 x float> %207, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %210 = shufflevector <4 x float> %121, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %211 = shufflevector <24 x float> %210, <24 x float> %209, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %212 = shufflevector <4 x float> %135, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %213 = shufflevector <24 x float> %212, <24 x float> %211, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %214 = shufflevector <4 x float> %144, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %215 = shufflevector <24 x float> %214, <24 x float> %213, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %216 = shufflevector <4 x float> %156, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 5, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %217 = shufflevector <24 x float> %216, <24 x float> %215, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 0, i32 1, i32 2, i32 3>
  %218 = shufflevector <4 x float> zeroinitializer, <4 x float> %94, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %219 = shufflevector <4 x float> %109, <4 x float> zeroinitializer, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %220 = shufflevector <24 x float> %219, <24 x float> %218, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %221 = shufflevector <24 x float> zeroinitializer, <24 x float> %220, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %222 = shufflevector <24 x float> zeroinitializer, <24 x float> %221, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %223 = shufflevector <4 x float> zeroinitializer, <4 x float> %147, <24 x i32> <i32 0, i32 1, i32 2, i32 6, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %224 = shufflevector <24 x float> %223, <24 x float> %222, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %225 = shufflevector <24 x float> %159, <24 x float> %224, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 0, i32 1, i32 2, i32 3>
  %226 = shufflevector <4 x float> zeroinitializer, <4 x float> %77, <24 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %227 = shufflevector <24 x float> zeroinitializer, <24 x float> %226, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %228 = shufflevector <24 x float> zeroinitializer, <24 x float> %227, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %229 = shufflevector <24 x float> zeroinitializer, <24 x float> %228, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>
  %230 = shufflevector <24 x float> zeroinitializer, <24 x float> %229, <24 x i32> <i32 24, i32 25, i32 26, i32 27, i32 28, i32 29, i32 30, i32 31, i32 32, i32 33, i32 34, i32 35, i32 36, i32 37, i32 38, i32 39, i32 40, i32 41, i32 42, i32 43, i32 0, i32 1, i32 2, i32 3>
  %231 = tail call <24 x float> @llvm.maximum.v24f32(<24 x float> %170, <24 x float> %230)
  %232 = tail call <24 x float> @llvm.maximum.v24f32(<24 x float> %180, <24 x float> %231)
  %233 = tail call <24 x float> @llvm.maximum.v24f32(<24 x float> %191, <24 x float> %232)
  %234 = tail call <24 x float> @llvm.maximum.v24f32(<24 x float> %201, <24 x float> %233)
  %235 = tail call <24 x float> @llvm.maximum.v24f32(<24 x float> %206, <24 x float> %234)
  %236 = tail call <24 x float> @llvm.maximum.v24f32(<24 x float> %217, <24 x float> %235)
  %237 = tail call <24 x float> @llvm.maximum.v24f32(<24 x float> %225, <24 x float> %236)
  %238 = shufflevector <24 x float> %237, <24 x float> zeroinitializer, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %239 = shufflevector <24 x float> %237, <24 x float> zeroinitializer, <4 x i32> <i32 4, i32 5, i32 6, i32 7>
  %240 = shufflevector <24 x float> %237, <24 x float> zeroinitializer, <4 x i32> <i32 8, i32 9, i32 10, i32 11>
  %241 = shufflevector <24 x float> %237, <24 x float> zeroinitializer, <4 x i32> <i32 12, i32 13, i32 14, i32 15>
  %242 = shufflevector <24 x float> %237, <24 x float> zeroinitializer, <4 x i32> <i32 16, i32 17, i32 18, i32 19>
  %243 = shufflevector <24 x float> %237, <24 x float> zeroinitializer, <4 x i32> <i32 20, i32 21, i32 22, i32 23>
  store <4 x float> %238, ptr %75, align 32
  store <4 x float> %239, ptr %76, align 16
  store <4 x float> %240, ptr %78, align 32
  store <4 x float> %241, ptr %79, align 16
  store <4 x float> %242, ptr %80, align 32
  store <4 x float> %243, ptr %81, align 16
  br i1 %21, label %.preheader, label %244

244:                                              ; preds = %.preheader
  %245 = getelementptr float, ptr %14, i64 %15
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 4 dereferenceable(192) %245, ptr noundef nonnull align 64 dereferenceable(192) %20, i64 192, i1 false)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #3

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <24 x float> @llvm.maximum.v24f32(<24 x float>, <24 x float>) #5

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: write)
declare void @llvm.masked.store.v32f32.p0(<32 x float>, ptr captures(none), <32 x i1>) #6

; uselistorder directives
uselistorder ptr @llvm.maximum.v24f32, { 6, 5, 4, 3, 2, 1, 0 }

attributes #0 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" }
attributes #1 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" }
attributes #2 = { nounwind memory(readwrite, target_mem0: none, target_mem1: none) }
attributes #3 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }
attributes #4 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #5 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { nocallback nofree nosync nounwind willreturn memory(argmem: write) }
