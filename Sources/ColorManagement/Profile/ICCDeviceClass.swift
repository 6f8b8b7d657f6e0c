/// The profile/device class of a header (ICC.1 7.2.5).
public enum ICCDeviceClass: Sendable, Hashable {
    /// `scnr`: input device.
    case input
    /// `mntr`: display.
    case display
    /// `prtr`: output device (printers, presses).
    case output
    /// `spac`: colour space conversion.
    case colorSpace
    /// `link`, `abst`, `nmcl` or anything else: not a source profile for an image.
    case other(ICCSignature)

    init(_ signature: ICCSignature) {
        switch signature {
        case ICCSignature("scnr"): self = .input
        case ICCSignature("mntr"): self = .display
        case ICCSignature("prtr"): self = .output
        case ICCSignature("spac"): self = .colorSpace
        default: self = .other(signature)
        }
    }
}
