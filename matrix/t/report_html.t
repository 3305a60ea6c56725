# The report's Markdown subset in HTML: heading anchors as GitHub makes
# them (so report.md's contents work there too), the contents list, nested
# and numbered lists, and a page that needs nothing from the network.
use strict;
use warnings;
use Test::More;
use VMAB::Report::Html qw(md_to_html slug headings toc);

my %seen;
is_deeply([map { slug($_, \%seen) } 'Question 1: Page accounting', '`no_pressure`', 'both', 'both',
	   'Allocator churn (ebizzy-like)', '[Link](#x) and **bold**'],
	  ['question-1-page-accounting', 'no_pressure', 'both', 'both-1', 'allocator-churn-ebizzy-like', 'link-and-bold'],
	  'anchors: GitHub\'s rule, repeats numbered');

my $md = "# T\n\n## A\n\n### B `x`\n\n```\n## not a heading\n```\n\n## A\n\n#### deep\n";
is_deeply([headings($md)], [[1, 'T', 't'], [2, 'A', 'a'], [3, 'B `x`', 'b-x'], [2, 'A', 'a-1'], [4, 'deep', 'deep']],
	  'headings in order, none from a code block');
is(toc($md, 2, 3), "- [A](#a)\n  - [B x](#b-x)\n- [A](#a-1)\n", 'contents, levels 2 and 3');

my $html = md_to_html("## A\n\n1. one\n2. two\n  - sub\n3. three\n- after\n\nsee [A](#a)\n", 't');
my ($body) = $html =~ /<body>\n(.*)\n<\/body>/s;
is($body, qq{<h2 id="a">A</h2>\n<ol>\n<li>one</li>\n<li>two\n<ul>\n<li>sub</li>\n</ul>\n</li>\n<li>three</li>\n</ol>\n} .
	  qq{<ul>\n<li>after</li>\n</ul>\n<p>see <a href="#a">A</a></p>}, 'numbered, nested and plain lists; an internal link');
unlike($html, qr/<(?:link|script)\b|\@import|url\(/, 'no external stylesheet, script or font');
like($html, qr/\@media print \{/, 'print styles');
done_testing;
