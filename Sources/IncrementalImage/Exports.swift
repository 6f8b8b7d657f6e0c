// What `import IncrementalImage` brings: the core types and the codecs, so users need one import.
@_exported import GIFCodec
@_exported import ImageCore
@_exported import JPEGCodec
@_exported import PNGCodec
