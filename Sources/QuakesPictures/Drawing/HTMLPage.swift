import QuakesCore

/// A picture as one self-contained HTML page: the SVG inline, and a tooltip per event (time,
/// magnitude, place and id) drawn by a few lines of script, so the page works from a file, offline,
/// with nothing fetched.
struct HTMLPage {
    var drawing: Drawing

    func document() -> String {
        let title = SVGWriter.escaped(drawing.title)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="quakes">
            <title>\(title)</title>
            <style>
            body { margin: 0; background: \(drawing.background.hexString); }
            svg { display: block; max-width: 100%; height: auto; }
            .event:hover { stroke: #000; stroke-width: 2; }
            #tip { position: fixed; display: none; pointer-events: none; background: #fff; color: #000;
              border: 1px solid #555; padding: 4px 6px; font: 13px/1.3 "DejaVu Sans", Verdana, sans-serif;
              white-space: pre; box-shadow: 1px 1px 3px rgba(0,0,0,.3); }
            </style>
            </head>
            <body>
            \(SVGWriter(drawing: drawing).element())<div id="tip"></div>
            <script>
            // The tooltip of an event is the text of its SVG title element, shown beside the pointer at once.
            (function () {
              var tip = document.getElementById("tip");
              document.querySelectorAll(".event").forEach(function (mark) {
                var title = mark.querySelector("title");
                var text = title ? title.textContent : "";
                if (title) { mark.removeChild(title); }
                mark.addEventListener("mousemove", function (e) {
                  tip.textContent = text;
                  tip.style.display = "block";
                  tip.style.left = (e.clientX + 12) + "px";
                  tip.style.top = (e.clientY + 12) + "px";
                });
                mark.addEventListener("mouseleave", function () { tip.style.display = "none"; });
              });
            })();
            </script>
            </body>
            </html>

            """
    }
}
