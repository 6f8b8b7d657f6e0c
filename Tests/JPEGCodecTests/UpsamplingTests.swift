import XCTest
@testable import JPEGCodec

/// Upsampling kernels at the edges, and the choice of kernel (libjpeg-turbo jdsample.c rules).
final class UpsamplingTests: XCTestCase {
    private func h2v1(_ input: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 2 * input.count)
        input.withUnsafeBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                RowUpsampler.h2v1Fancy(i.baseAddress!, width: input.count, into: o.baseAddress!)
            }
        }
        return output
    }

    func testH2V1FancyCopiesTheEdgeSamplesAndBlendsThreeToOneInside() {
        // Edges: first and last outputs equal the edge inputs; inner: (3·near + far + 1 or 2) / 4.
        XCTAssertEqual(h2v1([0, 100, 200]), [0, 25, 75, 125, 175, 200])
        // Alternating bias: (3·10 + 11 + 1) >> 2 = 10, (3·10 + 11 + 2) >> 2 = 10; (3·11+10+1)>>2 = 11.
        XCTAssertEqual(h2v1([10, 11, 10]), [10, 10, 11, 11, 10, 10])
    }

    func testH2V2FancyWeightsNineThreeThreeOneWithEdgeReplication() {
        let near: [UInt8] = [16, 32, 48], far: [UInt8] = [0, 0, 0]
        var output = [UInt8](repeating: 0, count: 6), sums = [UInt16](repeating: 0, count: 3)
        near.withUnsafeBufferPointer { n in
            far.withUnsafeBufferPointer { f in
                output.withUnsafeMutableBufferPointer { o in
                    sums.withUnsafeMutableBufferPointer { s in
                        RowUpsampler.h2v2Fancy(near: n.baseAddress!, far: f.baseAddress!, width: 3, sums: s.baseAddress!, into: o.baseAddress!)
                    }
                }
            }
        }
        // Column sums 48, 96, 144. First: (48·4 + 8) >> 4 = 12; (48·3 + 96 + 7) >> 4 = 15;
        // (96·3 + 48 + 8) >> 4 = 21; (96·3 + 144 + 7) >> 4 = 27; (144·3 + 96 + 8) >> 4 = 33; (144·4 + 7) >> 4 = 36.
        XCTAssertEqual(output, [12, 15, 21, 27, 33, 36])
    }

    func testH1V2FancyBiasDependsOnWhetherTheFartherRowIsAboveOrBelow() {
        let near: [UInt8] = [10], far: [UInt8] = [11]
        var upper: [UInt8] = [0], lower: [UInt8] = [0]
        near.withUnsafeBufferPointer { n in
            far.withUnsafeBufferPointer { f in
                upper.withUnsafeMutableBufferPointer { RowUpsampler.h1v2Fancy(near: n.baseAddress!, far: f.baseAddress!, width: 1, upper: true, into: $0.baseAddress!) }
                lower.withUnsafeMutableBufferPointer { RowUpsampler.h1v2Fancy(near: n.baseAddress!, far: f.baseAddress!, width: 1, upper: false, into: $0.baseAddress!) }
            }
        }
        XCTAssertEqual(upper, [10])   // (30 + 11 + 1) >> 2
        XCTAssertEqual(lower, [10])   // (30 + 11 + 2) >> 2 = 10
        XCTAssertEqual((3 * 11 + 10 + 2) >> 2, 11)
    }

    func testNarrowComponentsFallBackToReplication() {
        XCTAssertEqual(UpsamplingMethod.select(horizontal: 2, vertical: 2, downsampledWidth: 2, fancyAllowed: true),
                       .box(horizontal: 2, vertical: 2))
        XCTAssertEqual(UpsamplingMethod.select(horizontal: 2, vertical: 1, downsampledWidth: 2, fancyAllowed: true),
                       .box(horizontal: 2, vertical: 1))
        XCTAssertEqual(UpsamplingMethod.select(horizontal: 2, vertical: 2, downsampledWidth: 3, fancyAllowed: true), .h2v2Fancy)
        // 1×2 needs no width: fancy whenever context rows are allowed.
        XCTAssertEqual(UpsamplingMethod.select(horizontal: 1, vertical: 2, downsampledWidth: 1, fancyAllowed: true), .h1v2Fancy)
        // At 1/8 scale libjpeg has no context rows: everything replicates.
        XCTAssertEqual(UpsamplingMethod.select(horizontal: 2, vertical: 2, downsampledWidth: 50, fancyAllowed: false),
                       .box(horizontal: 2, vertical: 2))
        XCTAssertEqual(UpsamplingMethod.select(horizontal: 3, vertical: 1, downsampledWidth: 50, fancyAllowed: true),
                       .box(horizontal: 3, vertical: 1))
    }

    func testHalfScaleOf420ScalesChromaInTheIDCTInsteadOfUpsampling() throws {
        let frame = FrameHeader(marker: 0xC0, precision: 8, height: 149, width: 227, components: [
            FrameComponent(id: 1, horizontalSampling: 2, verticalSampling: 2, quantizationTable: 0),
            FrameComponent(id: 2, horizontalSampling: 1, verticalSampling: 1, quantizationTable: 1),
            FrameComponent(id: 3, horizontalSampling: 1, verticalSampling: 1, quantizationTable: 1)])
        let full = try FrameLayout(frame: frame, scale: .full, at: 0)
        XCTAssertEqual(full.components[1].upsampling, .h2v2Fancy)
        XCTAssertEqual(full.components[1].downsampledWidth, 114)
        let half = try FrameLayout(frame: frame, scale: .half, at: 0)
        XCTAssertEqual(half.components[0].blockSize, 4)
        XCTAssertEqual(half.components[1].blockSize, 8)
        XCTAssertEqual(half.components[1].upsampling, .fullSize)
        XCTAssertEqual(half.outputWidth, 114)
    }
}
