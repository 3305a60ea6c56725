package VMAB::Report::Html;
# The small Markdown subset the report uses (headings, paragraphs, lists,
# numbered lists, pipe tables, images, links, `code`, **bold**, _em_),
# turned into one self-contained HTML page: no external CSS, script or
# font, so it renders offline and prints (see @media print).
#   md_to_html($md, $title) -> HTML
#   slug($heading_text, \%seen) -> the heading's anchor, as GitHub makes it
#   headings($md) -> ([level, text, anchor], ...) in document order
#   toc($md, $min_level, $max_level) -> a Markdown list linking the headings
#   md_table(\@headings, \@cells, ...) -> a pipe table; md_row(\@cells) one row
#   esc_cell($text) -> the text with its pipes escaped, for a cell
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(md_to_html slug headings toc md_table md_row esc_cell);

sub md_row { my ($cells) = @_; return '| ' . join(' | ', @$cells) . " |\n" }
sub md_table { my ($head, @rows) = @_; return md_row($head) . '|---' x @$head . "|\n" . join('', map { md_row($_) } @rows) }
sub esc_cell { my ($s) = @_; $s =~ s/\|/\\|/g; return $s }

my %ENTITY = ('&' => '&amp;', '<' => '&lt;', '>' => '&gt;', '"' => '&quot;');
sub esc { my ($s) = @_; $s =~ s/([&<>"])/$ENTITY{$1}/g; return $s }

# The anchor GitHub gives a heading (so that report.md's table of contents
# works there too): the text without Markdown marks, lower case, anything
# but word characters, spaces and hyphens dropped, spaces made hyphens; a
# repeated anchor gets -1, -2, ...
sub slug {
	my ($text, $seen) = @_;
	my $s = lc plain($text);
	$s =~ s/[^\w\- ]//g;
	$s =~ tr/ /-/;
	if ($seen) {
		my $base = $s;
		$s = "$base-" . $seen->{$base} if $seen->{$base};
		$seen->{$base}++;
		$seen->{$s}++ if $s ne $base;
	}
	return $s;
}

# Heading text as a reader sees it: links by their text, no `, **, _.
sub plain {
	my ($s) = @_;
	$s =~ s/!?\[([^\]]*)\]\([^)]*\)/$1/g;
	$s =~ s/[`*]//g;
	$s =~ s/(?<![\w])_([^_]+)_(?![\w])/$1/g;
	return $s;
}

sub headings {
	my ($md) = @_;
	my (%seen, @h, $in_code);
	for my $l (split /\n/, $md) {
		$in_code = !$in_code if $l =~ /^```/;
		next if $in_code;
		push @h, [length $1, $2, slug($2, \%seen)] if $l =~ /^(#{1,6})\s+(.*?)\s*$/;
	}
	return @h;
}

sub toc {
	my ($md, $min, $max) = @_;
	my $s = '';
	for my $h (headings($md)) {
		my ($level, $text, $anchor) = @$h;
		next if $level < $min || $level > $max;
		$s .= ('  ' x ($level - $min)) . '- [' . plain($text) . "](#$anchor)\n";
	}
	return $s;
}

sub inline {
	my ($s) = @_;
	$s = esc($s);
	$s =~ s/`([^`]+)`/<code>$1<\/code>/g;
	$s =~ s/!\[([^\]]*)\]\(([^)]+)\)/<img alt="$1" src="$2">/g;
	$s =~ s/\[([^\]]+)\]\(([^)]+)\)/<a href="$2">$1<\/a>/g;
	$s =~ s/\*\*([^*]+)\*\*/<strong>$1<\/strong>/g;
	$s =~ s/(?<![\w])_([^_]+)_(?![\w])/<em>$1<\/em>/g;
	return $s;
}

# One list (- or 1.), nested by two-space indents, from $lines[$$i] on.
sub list {
	my ($lines, $i, $indent) = @_;
	my $ordered = $lines->[$$i] =~ /^\s*\d+\.\s/;
	my $tag = $ordered ? 'ol' : 'ul';
	my @out = ("<$tag>");
	while ($$i < @$lines && $lines->[$$i] =~ /^(\s*)(?:[-*]|\d+\.)\s+(.*)/ && length($1) >= $indent) {
		my ($ind, $text) = (length $1, $2);
		last if $ind == $indent && ($lines->[$$i] =~ /^\s*\d+\.\s/ ? 1 : 0) != ($ordered ? 1 : 0);
		if ($ind > $indent) {
			$out[-1] =~ s/<\/li>$//;
			push @out, list($lines, $i, $ind), '</li>';
			next;
		}
		push @out, '<li>' . inline($text) . '</li>';
		$$i++;
	}
	push @out, "</$tag>";
	return join("\n", @out);
}

sub md_to_html {
	my ($md, $title) = @_;
	my @out;
	my @lines = split /\n/, $md;
	my %seen;
	my $i = 0;
	while ($i < @lines) {
		my $l = $lines[$i];
		if ($l =~ /^(#{1,6})\s+(.*?)\s*$/) {
			my $n = length $1;
			push @out, "<h$n id=\"" . esc(slug($2, \%seen)) . "\">" . inline($2) . "</h$n>";
			$i++;
		} elsif ($l =~ /^\|/) {
			my @rows;
			while ($i < @lines && $lines[$i] =~ /^\|/) {
				push @rows, $lines[$i++];
			}
			push @out, '<table>';
			for my $r (0 .. $#rows) {
				next if $rows[$r] =~ /^\|[-:| ]+\|$/;
				my @c = split /\s*\|\s*/, $rows[$r] =~ s/^\|\s*|\s*\|$//gr, -1;
				my $tag = $r == 0 ? 'th' : 'td';
				push @out, '<tr>' . join('', map { "<$tag>" . inline($_) . "</$tag>" } @c) . '</tr>';
			}
			push @out, '</table>';
		} elsif ($l =~ /^(?:[-*]|\d+\.)\s+/) {
			push @out, list(\@lines, \$i, 0);
		} elsif ($l =~ /^```/) {
			my @code;
			$i++;
			push @code, esc($lines[$i++]) while $i < @lines && $lines[$i] !~ /^```/;
			$i++;
			push @out, '<pre>' . join("\n", @code) . '</pre>';
		} elsif ($l =~ /^\s*$/) {
			$i++;
		} else {
			my @p;
			push @p, $lines[$i++] while $i < @lines && $lines[$i] =~ /\S/ &&
				$lines[$i] !~ /^(#|\||[-*]\s|\d+\.\s|```)/;
			push @out, '<p>' . inline(join(' ', @p)) . '</p>';
		}
	}
	my $t = esc($title);
	return <<"HTML";
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$t</title>
<style>
body { font-family: sans-serif; font-size: 15px; max-width: 78em; margin: 1em auto; padding: 0 1em; line-height: 1.35; color: #111; }
h1 { font-size: 1.5em; margin: 0.2em 0 0.3em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 1.4em; }
h3 { font-size: 1.08em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #aaa; padding: 0.15em 0.45em; text-align: left; vertical-align: top; }
th { background: #eee; }
code { background: #f4f4f4; font-size: 0.92em; }
img { max-width: 100%; }
p, ul, ol { margin: 0.4em 0; }
\@media print {
  body { font-size: 10pt; max-width: none; margin: 0; padding: 0; }
  h2, h3, h4 { break-after: avoid; page-break-after: avoid; }
  table, img, pre, li { break-inside: avoid; page-break-inside: avoid; }
  tr { break-inside: avoid; }
  th { background: #eee; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  a { color: inherit; text-decoration: none; }
  a[href^="http"]::after { content: " <" attr(href) ">"; font-size: 0.85em; word-break: break-all; }
  h2[id^="appendix"] { break-before: page; page-break-before: always; }
}
</style></head><body>
@{[ join("\n", @out) ]}
</body></html>
HTML
}

1;
