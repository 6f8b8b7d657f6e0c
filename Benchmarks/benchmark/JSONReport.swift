/// The `--json` report: exactly one object on stdout,
/// `{"results":[{"file":…,"kind":…,"input_bytes":n,"output_bytes":n,"width":n|null,
/// "height":n|null,"median_seconds":x,"crc32":n}, …]}`. Files that failed or were skipped
/// carry `"error"` and null figures; skipped ones (no decoder for the kind yet) also `"skipped":true`.
enum JSONReport {
    static func render(_ results: [BenchmarkResult]) -> String {
        let entries = results.map { result -> String in
            var fields = [
                "\"file\":" + quoted(result.path),
                "\"kind\":" + (result.kind.map { quoted($0.rawValue) } ?? "null"),
                "\"input_bytes\":\(result.inputBytes)",
            ]
            switch result.measurement {
            case .measured(let outcome, let seconds, let crc32):
                fields += [
                    "\"output_bytes\":\(outcome.outputBytes)",
                    "\"width\":" + (outcome.width.map(String.init) ?? "null"),
                    "\"height\":" + (outcome.height.map(String.init) ?? "null"),
                    "\"median_seconds\":\(seconds)",
                    "\"crc32\":\(crc32)",
                ]
            case .failed(let message):
                fields += [
                    "\"output_bytes\":null", "\"width\":null", "\"height\":null",
                    "\"median_seconds\":null", "\"error\":" + quoted(message),
                ]
            case .skipped(let reason):
                fields += [
                    "\"output_bytes\":null", "\"width\":null", "\"height\":null",
                    "\"median_seconds\":null", "\"error\":" + quoted(reason), "\"skipped\":true",
                ]
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"results\":[\n" + entries.joined(separator: ",\n") + "\n]}"
    }

    /// A JSON string literal (RFC 8259 section 7): quote, backslash and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let digits = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
