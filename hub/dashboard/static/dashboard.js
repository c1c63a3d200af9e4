/* ctxhub dashboard: draws the overview's charts from the page's JSON island (no network, no inline script).
   Everything shown comes from data the server already escaped or from numbers; labels go to Chart.js
   as plain strings (it draws them on a canvas, never as HTML). */
(function () {
  "use strict";
  var island = document.getElementById("chart-data");
  if (!island || typeof Chart === "undefined") { return; }
  var data = JSON.parse(island.textContent);
  var raw = "#c0504d", sent = "#2e7d32";
  Chart.defaults.animation = false;
  Chart.defaults.font.size = 11;

  function kb(value) { return Math.round(value / 1024 * 10) / 10; }
  function stamp(seconds, width) {
    var date = new Date(seconds * 1000);
    return width >= 86400 ? date.toLocaleDateString() : date.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
  }

  var time = document.getElementById("chart-time");
  if (time) {
    var points = data.series.points, width = data.series.bucket_seconds;
    new Chart(time, {
      type: "bar",
      data: {
        labels: points.map(function (p) { return stamp(p.ts, width); }),
        datasets: [
          {label: "raw KB", data: points.map(function (p) { return kb(p.bytes_in); }), backgroundColor: raw},
          {label: "sent KB", data: points.map(function (p) { return kb(p.bytes_out); }), backgroundColor: sent}
        ]
      },
      options: {responsive: true, maintainAspectRatio: false, scales: {y: {title: {display: true, text: "KB"}}}}
    });
  }
  var tools = document.getElementById("chart-tools");
  if (tools) {
    new Chart(tools, {
      type: "bar",
      data: {
        labels: data.tools.map(function (t) { return t.tool; }),
        datasets: [
          {label: "raw KB", data: data.tools.map(function (t) { return kb(t.bytes_in); }), backgroundColor: raw},
          {label: "sent KB", data: data.tools.map(function (t) { return kb(t.bytes_out); }), backgroundColor: sent}
        ]
      },
      options: {indexAxis: "y", responsive: true, maintainAspectRatio: false}
    });
  }
  var modes = document.getElementById("chart-modes");
  if (modes) {
    var names = Object.keys(data.modes);
    var palette = {direct: "#607d8b", summary: "#1976d2", directive: "#8e24aa", repeat: "#f9a825", delta: "#00897b", error: "#c62828"};
    new Chart(modes, {
      type: "doughnut",
      data: {
        labels: names,
        datasets: [{data: names.map(function (n) { return data.modes[n].calls; }),
                    backgroundColor: names.map(function (n) { return palette[n] || "#9e9e9e"; })}]
      },
      options: {responsive: true, maintainAspectRatio: false}
    });
  }
  document.body.setAttribute("data-charts", "drawn");
})();
