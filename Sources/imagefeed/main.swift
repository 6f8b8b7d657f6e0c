print("imagefeed: not built yet")
