"""readsim's evaluation engine (``readsim.core``, the folder ``engine/core/``): pure Python
(numpy, lxml), no Qt, no pandas. Every module, one place for each thing:

Inputs
- :mod:`.formats`         readers and writers of qrels, FOL and XML runs, topics (reference section 2)
- :mod:`.text`            an article's text model: its text, offsets in a unit, elements (reference 2.8)
- :mod:`.safe_xml`        safe, bounded parsing of articles: budgets, own DTD or built-in entities (2.8)
- :mod:`.layout`          a readable display of an article and the offset map to display positions
- :mod:`.collection`      a folder, an archive or a folder of archives of articles, read lazily
- :mod:`.archives`        articles inside one archive (zip, tar, tar.gz, tar.bz2, tar.xz)
- :mod:`.documents`       documents that are not XML: plain text, Markdown, HTML (reference 2.13)
- :mod:`.jsonl_documents` a JSON Lines file of documents and its offset index (reference 2.13)
- :mod:`.irds`            ir_datasets datasets (``irds:DATASET``): documents and span qrels (reference 2.15)
- :mod:`.article_index`   the saved article index of a collection (reference 2.10)
- :mod:`.index_child`     the child process that builds an archive's index
- :mod:`.coverage`        do qrels, runs and collection fit together? (warnings)
- :mod:`.qrels_lengths`   doc_length from the collection where the qrels do not give it (2.11)
- :mod:`.units`           bytes or characters: the unit of offsets and lengths (reference 2.1)
- :mod:`.errors`          ``InputError`` and ``InputWarning``: file and line named
- :mod:`.samples`         the sample shipped in ``resources/sample``
- :mod:`.sandbox`         a sandbox article typed by hand: its file, its qrels and run (reference 9.2.2)

Measures (declared once: :mod:`.registry` over :mod:`.doc_kinds` and :mod:`.list_kinds`)
- :mod:`.measure`         measure names that parse back to themselves (reference section 6)
- :mod:`.intervals`       sorted half-open interval arrays (passages as ``(k, 2)`` int64 arrays)
- :mod:`.reading`         reading orders of one article as pieces (reference section 3)
- :mod:`.docmeasures`     document measures over a reading order's pieces (reference section 4)
- :mod:`.listarith`       list measures' arithmetic over one topic's document scores (section 5)
- :mod:`.cost_forms`      closed forms of the per-article costs (reference section 5.11)
- :mod:`.cwl`             the reader as a C/W/L user model; U-measure and TBG over characters (5.15, 5.16)

Evaluation (one path: articles as columns, scored in batches)
- :mod:`.doc_evaluation`  articles' evaluation from columns (``ArticleColumns``): reading orders,
  scores, curves; one article is a batch of one
- :mod:`.run_columns`     a run's and its qrels' columns joined: the articles' columns of whole runs
- :mod:`.result_lines`    results the columns do not speak for (edited, XML, XPaths), one by one
- :mod:`.ranked_inputs`   a topic's ranked articles (or one) as columns: what the window reads
- :mod:`.listmeasures`    list measures of whole runs and the official INEX tool's numbers
- :mod:`.focused`         the Focused task's ranks: each result line of a run, in file order
- :mod:`.passages`        one article's passages one by one: what each won or lost
- :mod:`.explain`         a document measure's formula with one article's numbers
- :mod:`.costs`           where a run loses: the AgP split and each ranked article's cost (5.11)
- :mod:`.conversions`     qrels, runs and collections converted between formats (readsim-eval convert, 9.8)
- :mod:`.parameter_sweep` measures at many values of one parameter (reference section 9.6)
- :mod:`.run_comparison`  comparing runs and measures: the policies, pairing by topic, the arrays
- :mod:`.paired_statistics` the statistics: tests, intervals, corrections, effect sizes, correlations
- :mod:`.report_numbers`  numbers as reports print them: decimals, signed differences, counts
- :mod:`.paper_tables`    tables for papers: LaTeX (booktabs) and Markdown, escaped (12.4)
- :mod:`.topic_differences` two runs' per-topic differences, sorted, with the paired t interval of their mean
- :mod:`.simulated`       simulated runs from the assessments (fidelity)
- :mod:`.fidelity_tables` does a measure order the simulated runs as expected?
- :mod:`.element_retrieval` element retrieval: assessments and the INEX 2002/2003 metrics

Writing and streams
- :mod:`.atomic`          atomic writes, never through a link or over a non-regular file
- :mod:`.streams`         the standard streams and Ctrl+C of the two commands (reference 9.3)
"""
