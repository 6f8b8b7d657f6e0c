/// The weighted DC sums of the DC-only smoothing (``SmoothingKernels/dcOnly``: zig-zag 1...9 and
/// DC) for one neighbourhood, written out from the kernels' symmetries. With v(r, c) the DC value
/// r rows below and c columns right of the block, and
/// - D1(r) = v(r, −1) − v(r, +1), D2(r) = v(r, −2) − v(r, +2) (left minus right),
/// - U1(c) = v(−1, c) − v(+1, c), U2(c) = v(−2, c) − v(+2, c) (above minus below),
///
/// AC01 = 38·D1(0) + 13·(D1(−1) + D1(+1)) − 3·(D2(−1) + D2(0) + D2(+1)) − (D1(−2) + D2(−2) + D1(+2) + D2(+2)),
/// AC10 the same transposed (U for D), AC11 = 9·(D1(−1) − D1(+1)) − (D2(−2) − D2(+2)),
/// AC03 = D1(−1) + 2·D1(0) + D1(+1), AC21 = D1(−1) + D1(+1) − 3·D1(0), AC30 and AC12 their
/// transposes, AC20 and AC02 and DC from the centre, the four edge neighbours, the four inner
/// corners and the outer ring. DC values are 16-bit and each kernel's weights sum below 2^9 in
/// magnitude, so every sum fits easily in an `Int` (wrapping operators: no overflow checks).
struct DCOnlySums {
    var ac01: Int, ac10: Int, ac20: Int, ac11: Int, ac02: Int
    var ac03: Int, ac12: Int, ac21: Int, ac30: Int
    var dc: Int

    @inline(__always)
    init(_ n: DCNeighbourhood) {
        // Left minus right, per row; above minus below, per column.
        let d1Up2 = n.left.up2 &- n.right.up2, d2Up2 = n.farLeft.up2 &- n.farRight.up2
        let d1Up1 = n.left.up1 &- n.right.up1, d2Up1 = n.farLeft.up1 &- n.farRight.up1
        let d1Mid = n.left.centre &- n.right.centre, d2Mid = n.farLeft.centre &- n.farRight.centre
        let d1Down1 = n.left.down1 &- n.right.down1, d2Down1 = n.farLeft.down1 &- n.farRight.down1
        let d1Down2 = n.left.down2 &- n.right.down2, d2Down2 = n.farLeft.down2 &- n.farRight.down2
        let u1Left2 = n.farLeft.up1 &- n.farLeft.down1, u2Left2 = n.farLeft.up2 &- n.farLeft.down2
        let u1Left = n.left.up1 &- n.left.down1, u2Left = n.left.up2 &- n.left.down2
        let u1Mid = n.centre.up1 &- n.centre.down1, u2Mid = n.centre.up2 &- n.centre.down2
        let u1Right = n.right.up1 &- n.right.down1, u2Right = n.right.up2 &- n.right.down2
        let u1Right2 = n.farRight.up1 &- n.farRight.down1, u2Right2 = n.farRight.up2 &- n.farRight.down2
        ac01 = 38 &* d1Mid &+ 13 &* (d1Up1 &+ d1Down1) &- 3 &* (d2Up1 &+ d2Mid &+ d2Down1)
            &- (d1Up2 &+ d1Down2 &+ d2Up2 &+ d2Down2)
        ac10 = 38 &* u1Mid &+ 13 &* (u1Left &+ u1Right) &- 3 &* (u2Left &+ u2Mid &+ u2Right)
            &- (u1Left2 &+ u1Right2 &+ u2Left2 &+ u2Right2)
        ac11 = 9 &* (d1Up1 &- d1Down1) &- (d2Up2 &- d2Down2)
        ac03 = d1Up1 &+ 2 &* d1Mid &+ d1Down1
        ac21 = d1Up1 &+ d1Down1 &- 3 &* d1Mid
        ac30 = u1Left &+ 2 &* u1Mid &+ u1Right
        ac12 = u1Left &+ u1Right &- 3 &* u1Mid
        // Sums symmetric about the block.
        let centre = n.centre.centre
        let vertical1 = n.centre.up1 &+ n.centre.down1, horizontal1 = n.left.centre &+ n.right.centre
        let vertical2 = n.centre.up2 &+ n.centre.down2, horizontal2 = n.farLeft.centre &+ n.farRight.centre
        let innerCorners = n.left.up1 &+ n.right.up1 &+ n.left.down1 &+ n.right.down1
        let outerCorners = n.farLeft.up2 &+ n.farRight.up2 &+ n.farLeft.down2 &+ n.farRight.down2
        let knightMoves = n.left.up2 &+ n.right.up2 &+ n.left.down2 &+ n.right.down2
            &+ n.farLeft.up1 &+ n.farRight.up1 &+ n.farLeft.down1 &+ n.farRight.down1
        ac20 = vertical2 &+ 7 &* vertical1 &- 14 &* centre &+ 2 &* innerCorners &- 5 &* horizontal1
        ac02 = horizontal2 &+ 7 &* horizontal1 &- 14 &* centre &+ 2 &* innerCorners &- 5 &* vertical1
        dc = 152 &* centre &+ 42 &* (vertical1 &+ horizontal1) &+ 6 &* innerCorners
            &- 8 &* (vertical2 &+ horizontal2) &- 6 &* knightMoves &- 2 &* outerCorners
    }
}
