package VMAB::Report::Html;
# The small Markdown subset the report uses (headings, paragraphs, lists,
# pipe tables, images, links, `code`, **bold**, _em_), turned into one
# self-contained HTML page.
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(md_to_html);

sub esc {
	my ($s) = @_;
	$s =~ s/&/&amp;/g;
	$s =~ s/</&lt;/g;
	$s =~ s/>/&gt;/g;
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

sub md_to_html {
	my ($md, $title) = @_;
	my @out;
	my @lines = split /\n/, $md;
	my $i = 0;
	while ($i < @lines) {
		my $l = $lines[$i];
		if ($l =~ /^(#{1,6})\s+(.*)/) {
			my $n = length $1;
			push @out, "<h$n>" . inline($2) . "</h$n>";
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
		} elsif ($l =~ /^[-*]\s+/) {
			push @out, '<ul>';
			while ($i < @lines && $lines[$i] =~ /^[-*]\s+(.*)/) {
				push @out, '<li>' . inline($1) . '</li>';
				$i++;
			}
			push @out, '</ul>';
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
				$lines[$i] !~ /^(#|\||[-*]\s|```)/;
			push @out, '<p>' . inline(join(' ', @p)) . '</p>';
		}
	}
	my $t = esc($title);
	return <<"HTML";
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>$t</title>
<style>
body { font-family: sans-serif; max-width: 75em; margin: 2em auto; line-height: 1.4; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #aaa; padding: 0.2em 0.5em; text-align: left; }
th { background: #eee; }
code { background: #f4f4f4; }
img { max-width: 100%; }
</style></head><body>
@{[ join("\n", @out) ]}
</body></html>
HTML
}

1;
