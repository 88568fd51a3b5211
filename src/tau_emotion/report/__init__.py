"""The HTML report and the terminal viewer over stored runs.

`build` turns run directories into `ReportData` (the analyses of `tau_emotion.analysis`),
`html` renders it into one self-contained file (inline SVG from `charts`, the episode
browser from `report.js`), `viewer` browses episodes in the terminal and `cli`
mounts the `report` and `view` commands on the main app.
"""
