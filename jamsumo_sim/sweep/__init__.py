"""Shot maps and tournaments at scale: a spec (:mod:`.spec`), the exact shot runner (:mod:`.batch`),
the sweep's cells and per-cell generators (:mod:`.run`), Dask distribution (:mod:`.dask_runner`),
outputs (:mod:`.output`) and the ``jamsumo sweep`` command (:mod:`.cli`).  See docs/sweep.md."""
