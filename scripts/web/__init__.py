"""The browser checks (.ci/web.sh, .ci/page.sh): the WebAssembly engine in a Web Worker
(`engine_test`) and the page as a person uses it (`test_page`), through one harness
(`browser`)."""
