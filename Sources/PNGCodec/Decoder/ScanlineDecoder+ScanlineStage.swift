/// The one-thread stage: rows are drawn the moment their bytes arrive, so the canvas is always
/// current (``ScanlineDecoder/picture(orientation:iccProfile:)`` is the stage's picture).
extension ScanlineDecoder: ScanlineStage {}
