"""Running many episodes: concurrency, result files, resume, manifests."""
