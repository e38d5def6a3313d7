#include "metadata/metadata.hpp"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "pith/dom.hpp"
#include "pith/extract.hpp"
#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

dom::Document parse(std::string_view html) { return test::parse_or_fail(html); }

std::string title_of(std::string_view head, std::string_view body = "") {
    const dom::Document doc =
        parse("<html><head>" + std::string(head) + "</head><body>" + std::string(body) + "</body></html>");
    return article_title(doc);
}

std::string ld_page(std::string_view json, std::string_view title = "Some Page Title Here") {
    return "<html><head><title>" + std::string(title) + "</title><script type=\"application/ld+json\">" +
           std::string(json) + "</script></head><body><p>x</p></body></html>";
}

// --- article_title -------------------------------------------------------------------------

TEST(ArticleTitle, CutsSiteNameAfterPipe) {
    EXPECT_EQ(title_of("<title>The Quick Brown Fox Jumps | Example Site</title>"), "The Quick Brown Fox Jumps");
}

TEST(ArticleTitle, DropsFirstPartWhenLastCutIsTooShort) {
    EXPECT_EQ(title_of("<title>Site Name - An Article About Many Things</title>"), "An Article About Many Things");
}

TEST(ArticleTitle, KeepsShortResultOfHierarchicalSeparator) {
    EXPECT_EQ(title_of("<title>Breaking News Today \xC2\xBB Site</title>"), "Breaking News Today");
    EXPECT_EQ(title_of("<title>A Long Headline For This Story \xC2\xBB News</title>"),
              "A Long Headline For This Story");
}

TEST(ArticleTitle, RevertsShortResultOfFlatSeparator) {
    EXPECT_EQ(title_of("<title>Breaking News Today | Site</title>"), "Breaking News Today | Site");
}

TEST(ArticleTitle, EnAndEmDashesAreFlatSeparators) {
    EXPECT_EQ(title_of("<title>Lorem ipsum dolor sit amet \xE2\x80\x93 My website</title>"),
              "Lorem ipsum dolor sit amet");
    // Cut to four words without a hierarchical separator: back to the full title.
    EXPECT_EQ(title_of("<title>Evolve: Shared Mutable History \xE2\x80\x94 evolve extension</title>"),
              "Evolve: Shared Mutable History \xE2\x80\x94 evolve extension");
}

TEST(ArticleTitle, ColonTakesPartAfterLastColon) {
    EXPECT_EQ(title_of("<title>Example Site: How We Built A Better Mousetrap Today</title>"),
              "How We Built A Better Mousetrap Today");
}

TEST(ArticleTitle, ColonKeptWhenAHeadingHoldsTheWholeTitle) {
    EXPECT_EQ(title_of("<title>Example Site: How We Built A Better Mousetrap Today</title>",
                       "<h2>\n  Example Site: How We Built A Better Mousetrap Today </h2>"),
              "Example Site: How We Built A Better Mousetrap Today");
}

TEST(ArticleTitle, ColonHeadingMatchAcrossElementsAndNesting) {
    const std::string title = "<title>Example Site: How We Built A Better Mousetrap Today</title>";
    EXPECT_EQ(title_of(title, "<h1> Example Site: <em>How We Built</em> A Better Mousetrap Today\n</h1>"),
              "Example Site: How We Built A Better Mousetrap Today");
    EXPECT_EQ(title_of(title, "<h1><div>Intro <h2>Example Site: How We Built A Better Mousetrap Today</h2></div></h1>"),
              "Example Site: How We Built A Better Mousetrap Today");
    // Same length, different text: not a match.
    EXPECT_EQ(title_of(title, "<h2>Example Site: How We Built A Better Mousetrap TODAY</h2>"),
              "How We Built A Better Mousetrap Today");
    // Template contents are not part of the document.
    EXPECT_EQ(title_of(title, "<template><h1>Example Site: How We Built A Better Mousetrap Today</h1></template>"),
              "How We Built A Better Mousetrap Today");
}

TEST(ArticleTitle, ColonKeptWhenTooManyWordsBeforeIt) {
    EXPECT_EQ(title_of("<title>One two three four five six: seven eight nine ten</title>"),
              "One two three four five six: seven eight nine ten");
}

TEST(ArticleTitle, ShortTitleFallsBackToTheOnlyH1) {
    EXPECT_EQ(title_of("<title>Short</title>", "<h1> The Real   Article Headline Is Here </h1>"),
              "The Real Article Headline Is Here");
    EXPECT_EQ(title_of("<title>Short</title>", "<h1>First Heading Of The Page</h1><h1>Second One Here</h1>"),
              "Short");
}

TEST(ArticleTitle, CollapsesAsciiWhiteSpaceOfTitleElement) {
    EXPECT_EQ(title_of("<title>\n  A   title\twith  odd   spacing \n</title>"), "A title with odd spacing");
    EXPECT_EQ(title_of(""), "");
}

TEST(ArticleTitle, IgnoresSvgTitle) {
    EXPECT_EQ(title_of("", "<svg><title>Icon title in svg</title></svg>"), "");
}

// --- read_json_ld ----------------------------------------------------------------------------

TEST(JsonLd, ReadsArticleFromGraph) {
    const auto doc = parse(ld_page(R"({"@context":"https://schema.org","@graph":[
        {"@type":"WebSite","name":"Site"},
        {"@type":"NewsArticle","headline":" Graph Headline ","description":" Desc ",
         "author":{"@type":"Person","name":" Jane Doe "},
         "publisher":{"@type":"Organization","name":"Daily Example"},
         "datePublished":"2024-01-02T03:04:05Z","image":"https://example.com/a.jpg"}]})"));
    const Metadata m = read_json_ld(doc);
    EXPECT_EQ(m.title, "Graph Headline");
    EXPECT_EQ(m.byline, "Jane Doe");
    EXPECT_EQ(m.excerpt, "Desc");
    EXPECT_EQ(m.site_name, "Daily Example");
    EXPECT_EQ(m.published_time, "2024-01-02T03:04:05Z");
    EXPECT_EQ(m.image, "https://example.com/a.jpg");
}

TEST(JsonLd, FindsArticleInTopLevelArray) {
    const auto doc = parse(ld_page(R"([{"@type":"BreadcrumbList"},
        {"@context":"http://schema.org/","@type":"BlogPosting","name":"Array Post"}])"));
    EXPECT_EQ(read_json_ld(doc).title, "Array Post");
}

TEST(JsonLd, JoinsAuthorArray) {
    const auto doc = parse(ld_page(R"({"@context":"https://schema.org","@type":"Article",
        "author":[{"name":"Ann "},"not an object",{"url":"x"},{"name":" Bob"}]})"));
    EXPECT_EQ(read_json_ld(doc).byline, "Ann, Bob");
}

TEST(JsonLd, PrefersHeadlineWhenOnlyItResemblesTheTitle) {
    const auto doc = parse(ld_page(
        R"({"@context":"https://schema.org","@type":"NewsArticle","name":"Example News",
            "headline":"Storm hits the coast tonight"})",
        "Storm Hits The Coast Tonight"));
    EXPECT_EQ(read_json_ld(doc).title, "Storm hits the coast tonight");
}

TEST(JsonLd, PrefersNameWhenNeitherResemblesTheTitle) {
    const auto doc = parse(ld_page(
        R"({"@context":"https://schema.org","@type":"NewsArticle","name":"Example News",
            "headline":"Storm hits the coast tonight"})",
        "Something else entirely different"));
    EXPECT_EQ(read_json_ld(doc).title, "Example News");
}

TEST(JsonLd, VocabContextAndCdataWrapper) {
    const auto doc = parse(ld_page(
        "\n<![CDATA[ {\"@context\":{\"@vocab\":\"http://schema.org/\"},\"@type\":\"ReportageNewsArticle\","
        "\"headline\":\"Wrapped\"} ]]>\n"));
    EXPECT_EQ(read_json_ld(doc).title, "Wrapped");
}

TEST(JsonLd, SkipsNonArticleAndNonSchemaOrgScripts) {
    const auto doc = parse(
        "<html><head>"
        R"(<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebPage","name":"A"}</script>)"
        R"(<script type="application/ld+json">{"@context":"https://example.org","@type":"Article","name":"B"}</script>)"
        R"(<script type="application/ld+json">{"@context":"https://schema.org","@type":["Article"],"name":"C"}</script>)"
        R"(<script type="application/ld+json">{not json</script>)"
        R"(<script type="application/json">{"@context":"https://schema.org","@type":"Article","name":"D"}</script>)"
        R"(<script type="application/ld+json">{"@context":"https://schema.org","@type":"TechArticle","name":"E"}</script>)"
        R"(<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","name":"F"}</script>)"
        "</head><body></body></html>");
    EXPECT_EQ(read_json_ld(doc).title, "E");
}

TEST(JsonLd, ArticleTypePatternPrecedence) {
    auto title_for_type = [](std::string_view type) {
        const auto doc = parse(ld_page(R"({"@context":"https://schema.org","@type":")" + std::string(type) +
                                       R"(","name":"N"})"));
        return read_json_ld(doc).title.value_or("<none>");
    };
    EXPECT_EQ(title_for_type("ArticleSeries"), "N");   // ^Article
    EXPECT_EQ(title_for_type("MyNewsArticleX"), "N");  // infix
    EXPECT_EQ(title_for_type("WebAPIReference"), "N"); // APIReference$
    EXPECT_EQ(title_for_type("APIReferenceX"), "<none>");
    EXPECT_EQ(title_for_type("article"), "<none>");
}

TEST(JsonLd, EmptyWhenNoScript) {
    const auto doc = parse("<html><head><title>T</title></head><body></body></html>");
    const Metadata m = read_json_ld(doc);
    EXPECT_FALSE(m.title || m.byline || m.excerpt || m.site_name || m.published_time || m.image);
}

// --- read_metadata ---------------------------------------------------------------------------

TEST(ReadMetadata, SpaceSeparatedPropertiesUseTheFirstMatch) {
    const auto doc = parse(R"(<html><head><title>Title Element</title>
        <meta property="x:title dc:title" content="Preferred title"/>
        <meta property="og:title twitter:title" content="A title"/>
        <meta property="dc:creator twitter:site_name" content="Creator Name"/>
        <meta name="author" content="FAIL"/>
        <meta property="og:description x:description twitter:description" content="A description"/>
        <meta property="dc:description og:description" content="Preferred description"/>
        <meta name="description" content="FAIL"/>
        </head><body></body></html>)");
    const Metadata m = read_metadata(doc, {}, "");
    EXPECT_EQ(m.title, "Preferred title");
    EXPECT_EQ(m.byline, "Creator Name");
    EXPECT_EQ(m.excerpt, "Preferred description");
    EXPECT_EQ(m.site_name, std::nullopt);
    EXPECT_EQ(m.published_time, std::nullopt);
}

TEST(ReadMetadata, NameFormsAndPriorities) {
    const auto doc = parse(R"(<html><head><title>Fallback Title Of Page</title>
        <meta name="twitter:title" content="Twitter title"/>
        <meta name=" OG . Title " content="Og title"/>
        <meta name="parsely-author" content="Parsely Author"/>
        <meta name="parsely-pub-date" content="2020-05-06"/>
        <meta name="weibo:article:description" content="Weibo description"/>
        <meta name="twitter:description" content="Twitter description"/>
        <meta property=" og : site_name " content=" Site &amp; Co "/>
        <meta name="dc.title.extra" content="ignored"/>
        </head><body></body></html>)");
    const Metadata m = read_metadata(doc, {}, "");
    EXPECT_EQ(m.title, "Og title");
    EXPECT_EQ(m.byline, "Parsely Author");
    EXPECT_EQ(m.excerpt, "Weibo description");
    EXPECT_EQ(m.site_name, "Site & Co");
    EXPECT_EQ(m.published_time, "2020-05-06");
}

TEST(ReadMetadata, LaterMetaOverwritesEarlier) {
    const auto doc = parse(R"(<html><head>
        <meta property="og:title" content="First"/><meta property="og:title" content="Second"/>
        <meta name="author" content="Someone"/><meta name="author" content="  "/>
        </head><body></body></html>)");
    const Metadata m = read_metadata(doc, {}, "");
    EXPECT_EQ(m.title, "Second");
    EXPECT_EQ(m.byline, std::nullopt);  // the blank one replaced the earlier value
}

TEST(ReadMetadata, JsonLdWinsAndEmptyJsonLdValuesFallThrough) {
    const auto doc = parse(R"(<html><head>
        <meta property="og:title" content="Meta title"/><meta property="og:description" content="Meta desc"/>
        <meta property="article:published_time" content="2021-01-01"/>
        </head><body></body></html>)");
    Metadata ld;
    ld.title = "Ld title";
    ld.excerpt = "";
    const Metadata m = read_metadata(doc, ld, "");
    EXPECT_EQ(m.title, "Ld title");
    EXPECT_EQ(m.excerpt, "Meta desc");
    EXPECT_EQ(m.published_time, "2021-01-01");
}

TEST(ReadMetadata, ArticleAuthorIgnoredWhenItIsAUrl) {
    const auto url_doc = parse(R"(<meta property="article:author" content="https://example.com/jane">)");
    EXPECT_EQ(read_metadata(url_doc, {}, "").byline, std::nullopt);
    const auto name_doc = parse(R"(<meta property="article:author" content="Jane Roe">)");
    EXPECT_EQ(read_metadata(name_doc, {}, "").byline, "Jane Roe");
}

TEST(ReadMetadata, TitleFallsBackToArticleTitleAndIsUnescaped) {
    const auto doc = parse(R"(<html><head><title>Fish &amp;amp; Chips Are Great | Site</title>
        <meta name="description" content="A &amp;quot;quoted&amp;quot; &#8220;text&#x201D;"/>
        </head><body></body></html>)");
    const Metadata m = read_metadata(doc, {}, "");
    EXPECT_EQ(m.title, "Fish & Chips Are Great");
    EXPECT_EQ(m.excerpt, "A \"quoted\" \xE2\x80\x9Ctext\xE2\x80\x9D");
}

TEST(ReadMetadata, ImagePriorityAndResolution) {
    const std::string head_tail = R"(<meta name="twitter:image" content="/tw.png">
        <meta property="og:image" content="img/og.png"><meta property="og:image" content="img/og2.png">
        <link rel="image_src" href="/src.png">)";
    const auto doc = parse("<html><head>" + head_tail + "</head><body></body></html>");
    EXPECT_EQ(read_metadata(doc, {}, "").image, "img/og.png");
    EXPECT_EQ(read_metadata(doc, {}, "http://example.com/a/page.html").image, "http://example.com/a/img/og.png");

    Metadata ld;
    ld.image = "ld.jpg";
    EXPECT_EQ(read_metadata(doc, ld, "http://example.com/a/page.html").image, "http://example.com/a/ld.jpg");

    const auto link_only = parse(R"(<link rel="Image_Src" href="/src.png">)");
    EXPECT_EQ(read_metadata(link_only, {}, "http://example.com/a/").image, "http://example.com/src.png");
    const auto none = parse("<p>nothing</p>");
    EXPECT_EQ(read_metadata(none, {}, "http://example.com/").image, std::nullopt);
}

TEST(ReadMetadata, JsonLdImageForms) {
    const auto doc = parse(ld_page(R"({"@context":"https://schema.org","@type":"Article",
        "image":[{"@type":"ImageObject"},{"@type":"ImageObject","url":"https://example.com/i.jpg"},"b.jpg"]})"));
    EXPECT_EQ(read_json_ld(doc).image, "https://example.com/i.jpg");
    const auto obj = parse(ld_page(R"({"@context":"https://schema.org","@type":"Article",
        "image":{"url":"/o.jpg"}})"));
    EXPECT_EQ(read_json_ld(obj).image, "/o.jpg");
}

TEST(ReadMetadata, FaviconPrefersLargestIcon) {
    const auto doc = parse(R"(<html><head>
        <link rel="apple-touch-icon" sizes="180x180" href="/apple.png">
        <link rel="icon" sizes="16x16" href="/16.png">
        <link rel="shortcut icon" href="/favicon.ico">
        <link rel="icon" sizes="32x32 24x24" href="/32.png">
        <link rel="mask-icon" href="/mask.svg">
        </head><body></body></html>)");
    EXPECT_EQ(read_metadata(doc, {}, "").favicon, "/32.png");
    EXPECT_EQ(read_metadata(doc, {}, "https://example.com/x/y").favicon, "https://example.com/32.png");
}

TEST(ReadMetadata, FaviconAnySizeAndAppleTouchFallback) {
    const auto any = parse(R"(<link rel="icon" sizes="64x64" href="a.png"><link rel="icon" sizes="any" href="a.svg">)");
    EXPECT_EQ(read_metadata(any, {}, "").favicon, "a.svg");
    const auto apple = parse(R"(<link rel="apple-touch-icon-precomposed" href="t.png"><link rel="mask-icon" href="m.svg">)");
    EXPECT_EQ(read_metadata(apple, {}, "http://h/d/").favicon, "http://h/d/t.png");
    const auto none = parse(R"(<link rel="stylesheet" href="s.css">)");
    EXPECT_EQ(read_metadata(none, {}, "").favicon, std::nullopt);
}

// --- text_similarity, unescape_html_entities --------------------------------------------------

TEST(TextSimilarity, ComparesUniqueWordsOfSecondText) {
    EXPECT_DOUBLE_EQ(text_similarity("The quick brown fox", "the QUICK fox"), 1.0);
    EXPECT_DOUBLE_EQ(text_similarity("the quick brown fox", "the quick red fox"), 1.0 - 3.0 / 17.0);
    EXPECT_DOUBLE_EQ(text_similarity("abc", "x-y"), 0.0);
    EXPECT_DOUBLE_EQ(text_similarity("", "words"), 0.0);
    EXPECT_DOUBLE_EQ(text_similarity("words", "--"), 0.0);
    // Non-ASCII letters are separators, as \W is ASCII-only in JS.
    EXPECT_DOUBLE_EQ(text_similarity("caf", "caf\xC3\xA9"), 1.0);
}

TEST(UnescapeHtmlEntities, NamedThenNumeric) {
    EXPECT_EQ(unescape_html_entities("&lt;b&gt; &quot;x&quot; &apos;y&apos;"), "<b> \"x\" 'y'");
    EXPECT_EQ(unescape_html_entities("&amp;amp; &amp;#65;"), "&amp; A");
    EXPECT_EQ(unescape_html_entities("&#65;&#x42;&#X43;&#x00044;"), "ABCD");
    EXPECT_EQ(unescape_html_entities("&#0;|&#xD800;|&#1114112;|&#99999999999999999999;"),
              "\xEF\xBF\xBD|\xEF\xBF\xBD|\xEF\xBF\xBD|\xEF\xBF\xBD");
    EXPECT_EQ(unescape_html_entities("&QUOT; &#x; &#65 &nbsp;"), "&QUOT; &#x; &#65 &nbsp;");
    EXPECT_EQ(unescape_html_entities("&#x1F600;"), "\xF0\x9F\x98\x80");
    EXPECT_EQ(unescape_html_entities(""), "");
}

TEST(ApplyMetadata, NamedReferencesEscapedTwiceAreDecodedButByReadability) {
    // og:title, og:site_name and the author escaped twice, and names that are
    // no reference or only begin with one. The <h1> says what og:title means,
    // so either is the title.
    const std::string page =
        "<html><head><title>x</title>"
        "<meta property=\"og:title\" content=\"The Cream with TFC8&amp;reg; &amp;ndash; Caf&amp;eacute; "
        "&amp;notaname; &amp;unknown; AT&amp;T\">"
        "<meta property=\"og:site_name\" content=\"Fish &amp;amp; Chips &amp;copy;\">"
        "<meta name=\"author\" content=\"Ren&amp;eacute;e Dupont\"></head>"
        "<body><article><h1>The Cream with TFC8&reg; &ndash; Caf&eacute; &amp;notaname; &amp;unknown; "
        "AT&amp;T</h1><p>" + std::string(600, 'w') + "</p></article></body></html>";
    ExtractOptions options;
    options.strategy = Strategy::fitness;
    options.page_type = PageType::article;
    Article article = extract(page, options);
    EXPECT_EQ(article.site_name, "Fish & Chips \u00A9");
    EXPECT_EQ(article.byline, "Ren\u00E9e Dupont");
    ASSERT_EQ(article.authors.size(), 1U);
    EXPECT_EQ(article.authors[0], "Ren\u00E9e Dupont");
    EXPECT_EQ(article.title, "The Cream with TFC8\u00AE \u2013 Caf\u00E9 &notaname; &unknown; AT&T");
    options.strategy = Strategy::readability;
    article = extract(page, options);
    EXPECT_EQ(article.site_name, "Fish & Chips &copy;");
    EXPECT_EQ(article.title, "The Cream with TFC8&reg; &ndash; Caf&eacute; &notaname; &unknown; AT&T");
}

TEST(ApplyMetadata, NumericReferencesEscapedTwiceAreDecodedAsReadabilityDecodesThem) {
    // A <title> and an <h1> escaped twice: "&amp;#x26;" reaches the title as
    // "&#x26;", which Readability.js's own unescaping decodes.
    const std::string page =
        "<html><head><title>Python, SQL &amp;#x26; AI &amp;#8211; Tools</title></head><body><article>"
        "<h1>Python, SQL &amp;#x26; AI &amp;#8211; Tools</h1><p>" + std::string(600, 'w') + "</p></article></body></html>";
    ExtractOptions options;
    options.page_type = PageType::article;
    for (const Strategy strategy : {Strategy::fitness, Strategy::automatic, Strategy::readability}) {
        options.strategy = strategy;
        EXPECT_EQ(extract(page, options).title, "Python, SQL & AI \u2013 Tools") << strategy_name(strategy);
    }
}

// --- headline_title ------------------------------------------------------------------------

std::string headline_of(std::string_view head, std::string_view body, std::string_view url = "") {
    const dom::Document doc =
        parse("<html><head>" + std::string(head) + "</head><body>" + std::string(body) + "</body></html>");
    return headline_title(doc, url, "fallback").headline.value;
}

TEST(HeadlineTitle, TheH1ThatAgreesWithTheTitleWinsOverTheTitleWithItsSiteName) {
    EXPECT_EQ(headline_of("<title>How Tides Work: A Guide | Ocean News</title>",
                          "<h1>How Tides Work: a Guide</h1>"),
              "How Tides Work: a Guide");
}

TEST(HeadlineTitle, AnH1NamingTheSiteIsPassedOver) {
    // By og:site_name, by a later part of <title>, and by the host.
    EXPECT_EQ(headline_of("<title>River Deltas - Ocean News</title><meta property=\"og:site_name\" content=\"Tidal\">",
                          "<h1>Tidal</h1><h1>Ocean News</h1><h1>River deltas</h1>"),
              "River deltas");
    EXPECT_EQ(headline_of("<title>River Deltas</title>", "<h1>Ocean-News</h1><p>x</p>",
                          "https://www.oceannews.example/deltas"),
              "River Deltas");
}

TEST(HeadlineTitle, ASloganH1LosesToTheFirstPartOfOgTitle) {
    EXPECT_EQ(headline_of("<title>Email Tools | Postbox</title>"
                          "<meta property=\"og:title\" content=\"Email Marketing Tools \xE2\x80\x94 Postbox\">",
                          "<h1>Win customers with every send</h1>"),
              "Email Marketing Tools");
}

TEST(HeadlineTitle, OnlyTheFirstThreeH1sAreTriedAndLongOnesAreNotHeadlines) {
    EXPECT_EQ(headline_of("<title>Deltas | Site</title>",
                          "<h1>Site</h1><h1>Site</h1><h1>Site</h1><h1>Deltas</h1>"),
              "Deltas");  // the title's first part, not the fourth <h1>
    EXPECT_EQ(headline_of("<title>Deltas | Site</title>", "<h1>" + std::string(300, 'a') + "</h1>"), "Deltas");
}

TEST(HeadlineTitle, SeparatorsMustBeSpacedAndThePageMayHaveNoTitleAtAll) {
    EXPECT_EQ(headline_of("<title>Well-known pre-1900 maps</title>", ""), "Well-known pre-1900 maps");
    EXPECT_EQ(headline_of("", ""), "fallback");
    EXPECT_EQ(headline_of("", "<h1>  Only\n  a heading </h1>"), "Only a heading");
}

TEST(HeadlineTitle, AHeadingsPermalinkMarkIsNotItsText) {
    EXPECT_EQ(headline_of("<title>Logging HOWTO \xE2\x80\x94 Docs</title>",
                          "<h1>Logging HOWTO<a class=\"headerlink\" href=\"#logging-howto\">\xC2\xB6</a></h1>"),
              "Logging HOWTO");
    EXPECT_EQ(headline_of("", "<h1><a href=\"#top\">#</a> Install</h1>"), "Install");
    // A link to elsewhere, or one that says more than a mark, is the heading's text.
    EXPECT_EQ(headline_of("", "<h1>C <a href=\"/sharp\">#</a></h1>"), "C #");
    EXPECT_EQ(headline_of("", "<h1>Step <a href=\"#one\">one</a></h1>"), "Step one");
}

TEST(HeadlineTitle, AHeadingEndingAsItsTitleDoesLosesTheSitesPart) {
    // The ending names the site: the host, or og:site_name.
    EXPECT_EQ(headline_of("<title>Catering Tips | Cookshack</title>", "<h1>Catering Tips | Cookshack</h1>",
                          "https://www.cookshack.example/forum/tips"),
              "Catering Tips");
    EXPECT_EQ(headline_of("<title>Best Exhibitions 2025 \xE2\x80\x93 Artlyst - Artlyst</title>"
                          "<meta property=\"og:site_name\" content=\"Artlyst\">",
                          "<h1>Best Exhibitions 2025 \xE2\x80\x93 Artlyst</h1>"),
              "Best Exhibitions 2025");
    // A tail that matches the title's but names something else stays.
    EXPECT_EQ(headline_of("<title>Ministry | Grants stopped - Rules change</title>",
                          "<h1>Grants stopped - Rules change</h1>", "https://ministry.example/news"),
              "Grants stopped - Rules change");
    // A subtitle the title ends with, not naming the site, stays.
    EXPECT_EQ(headline_of("<title>How to Replace Brake Pads \xE2\x80\x93 From a Mechanic</title>",
                          "<h1>How to Replace Brake Pads \xE2\x80\x93 From a Mechanic</h1>",
                          "https://cars.example/brakes"),
              "How to Replace Brake Pads \xE2\x80\x93 From a Mechanic");
}

TEST(HeadlineTitle, TheTitlesFirstPartComesWithTheHeadingChosenOverIt) {
    const HeadlineChoice choice = headline_title(
        parse("<html><head><title>Which telescope first? - Beginners - Sky Forum</title></head>"
              "<body><h1>Thread: Which telescope first?</h1></body></html>"),
        "", "fallback");
    EXPECT_EQ(choice.headline.value, "Thread: Which telescope first?");
    ASSERT_TRUE(choice.title_part);
    EXPECT_EQ(choice.title_part->value, "Which telescope first?");
    EXPECT_EQ(choice.title_part->source, "title");
    // Without an <h1> chosen there is no part to prefer.
    EXPECT_FALSE(headline_title(parse("<html><head><title>A | B</title></head><body></body></html>"), "", "")
                     .title_part);
}

TEST(HeadlineTitle, EveryTitleThePageGivesIsACandidateOnce) {
    const HeadlineChoice choice = headline_title(
        parse("<html><head><title>Which telescope first? - Beginners - Sky Forum</title>"
              "<meta property=\"og:title\" content=\"Which telescope first?\"></head>"
              "<body><h1>Thread: Which telescope first?</h1><h1>Sky Forum</h1></body></html>"),
        "https://sky.example/forum/t/1", "fallback", "Which telescope first?");
    std::vector<std::string> texts;
    for (const TitleCandidate& c : choice.candidates) {
        texts.push_back(c.text);
        EXPECT_EQ(c.features.size(), kTitleOwnFeatureCount) << c.text;
    }
    // The headline chosen by rule first; each text once, however many
    // sources give it (the first part, og:title and JSON-LD here).
    EXPECT_EQ(texts, (std::vector<std::string>{"Thread: Which telescope first?", "Which telescope first?",
                                               "Which telescope first? - Beginners - Sky Forum", "Sky Forum",
                                               "Which telescope first? - Beginners"}));
    const auto names = title_own_feature_names();
    const auto feature = [&](std::size_t candidate, std::string_view name) {
        return choice.candidates[candidate].features[static_cast<std::size_t>(
            std::find(names.begin(), names.end(), name) - names.begin())];
    };
    // The part the heading was chosen over, the title's first part, og:title and JSON-LD.
    EXPECT_EQ(feature(1, "sources"), 4.0);
    EXPECT_EQ(feature(1, "from_json_ld"), 1.0);
    // The title's last part and the second <h1>.
    EXPECT_EQ(feature(3, "sources"), 2.0);
    EXPECT_EQ(feature(3, "from_other_h1"), 1.0);
    EXPECT_EQ(feature(2, "has_separator"), 1.0);
    EXPECT_EQ(feature(1, "has_separator"), 0.0);
    EXPECT_EQ(feature(0, "h1_count"), 2.0);
}

// A forum thread whose <h1> carries a prefix the title's first part has not.
std::string telescope_thread() {
    return "<html><head><title>Which telescope first? - Beginners - Sky Forum</title></head>"
           "<body><h1>Thread: Which telescope first?</h1><p>" +
           std::string(80, 'x') + " I would like advice on a first telescope to buy.</p></body></html>";
}

TEST(TitleModel, TheTitleIsTheCandidateScoredHighest) {
    const std::string page = telescope_thread();
    ExtractOptions options;
    options.strategy = Strategy::automatic;
    const Article article = extract(page, options);
    ASSERT_GE(article.title_candidates.size(), 3U);
    const auto best = std::max_element(article.title_candidates.begin(), article.title_candidates.end(),
                                       [](const auto& a, const auto& b) { return a.score < b.score; });
    EXPECT_EQ(article.title, best->text);
    EXPECT_EQ(article.metadata_sources.title, best->source);
    for (const TitleCandidateDiagnostics& c : article.title_candidates) {
        EXPECT_GE(c.score, 0.0) << c.text;
        EXPECT_LE(c.score, 1.0) << c.text;
        EXPECT_EQ(c.features.size(), kTitleFeatureCount) << c.text;
    }
}

// A page of the "Earth Notes" site whose <title> is `title` and the site's
// name, and whose og:title and <h1> are `headline`.
std::string earth_notes_page(std::string_view title, std::string_view headline) {
    return "<html><head><title>" + std::string(title) + " | Earth Notes</title>"
           "<meta property=\"og:title\" content=\"" + std::string(headline) + "\">"
           "<meta property=\"og:site_name\" content=\"Earth Notes\"></head>"
           "<body><article><h1>" + std::string(headline) + "</h1><p>" + std::string(200, 'x') +
           " Every river carries the land it drains, and drops it where it slows.</p></article></body></html>";
}

TEST(TitleModel, AHeadlineEverySourceAgreesOnLeavesTheSiteNameOut) {
    const std::string page = earth_notes_page("How river deltas build land", "How river deltas build land");
    ExtractOptions options;
    options.strategy = Strategy::automatic;
    options.input.url = "https://earthnotes.example/deltas";
    EXPECT_EQ(extract(page, options).title, "How river deltas build land");
}

// The page writes its headline with typographic quotes and its <title> with
// plain ones: the plain spelling is taken, and a page that only writes it
// typeset keeps that.
TEST(TitleModel, APlainQuoteSpellingThePageGivesIsPreferred) {
    const auto page = [](std::string_view title) {
        return earth_notes_page(title, "Why rivers don\u2019t run straight");
    };
    ExtractOptions options;
    options.strategy = Strategy::automatic;
    options.input.url = "https://earthnotes.example/meanders";
    EXPECT_EQ(extract(page("Why rivers don't run straight"), options).title, "Why rivers don't run straight");
    EXPECT_EQ(extract(page("Why rivers don\u2019t run straight"), options).title, "Why rivers don\u2019t run straight");
}

TEST(TitleModel, ReadabilityKeepsReadabilitysTitleAndHasNoCandidates) {
    const std::string page = telescope_thread();
    ExtractOptions options;
    options.strategy = Strategy::readability;
    const Article article = extract(page, options);
    EXPECT_EQ(article.title, article_title(parse(page)));
    EXPECT_TRUE(article.title_candidates.empty());
}

TEST(HeadlineTitle, ALineBreakInTheHeadingSeparatesItsWords) {
    EXPECT_EQ(headline_of("", "<h1><span>News Product<br>Management</span></h1>"), "News Product Management");
    EXPECT_EQ(headline_of("", "<h1>Data<div>Agency</div></h1>"), "Data Agency");
}

}  // namespace
}  // namespace pith::extract
