#include "metadata/authors_dates.hpp"

#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "pith/extract.hpp"
#include "parse_or_fail.hpp"

namespace pith::extract {
namespace {

using Names = std::vector<std::string>;

AuthorsAndDates read_page(std::string_view head, std::string_view body = "", std::string_view url = "") {
    const dom::Document doc =
        test::parse_or_fail("<html><head>" + std::string(head) + "</head><body>" + std::string(body) + "</body></html>");
    AuthorsAndDates found = read_authors_and_dates(doc, read_json_ld_facts(doc), url);
    read_unmarked_facts(doc, found);
    return found;
}

// `page` extracted as an article is dated `date`, read from `source`; as a
// page of type `other` it has no date.
void expect_dated_as_an_article_only(const std::string& page, const std::string& date, const std::string& source,
                                     PageType other) {
    ExtractOptions options;
    options.page_type = PageType::article;
    const Article article = extract(page, options);
    EXPECT_EQ(article.published_time, date);
    EXPECT_EQ(article.metadata_sources.published_time, source);
    options.page_type = other;
    EXPECT_FALSE(extract(page, options).published_time);
}

TEST(IsoDate, KeepsIsoFormsAndTheirTime) {
    EXPECT_EQ(iso_date("2025-09-04"), "2025-09-04");
    EXPECT_EQ(iso_date(" 2025-09-04T10:30:00+02:00 "), "2025-09-04T10:30:00+02:00");
    EXPECT_EQ(iso_date("2025-09-04 10:30:00.123Z"), "2025-09-04T10:30:00.123Z");
    EXPECT_EQ(iso_date("2025-09-04T10:30"), "2025-09-04T10:30");
}

TEST(IsoDate, ReadsNumericAndWordedDates) {
    EXPECT_EQ(iso_date("2025/09/04"), "2025-09-04");
    EXPECT_EQ(iso_date("20250904"), "2025-09-04");
    EXPECT_EQ(iso_date("04.09.2025"), "2025-09-04");  // day first
    EXPECT_EQ(iso_date("4 September 2025"), "2025-09-04");
    EXPECT_EQ(iso_date("Sep. 4, 2025"), "2025-09-04");
    EXPECT_EQ(iso_date("September 4th, 2025"), "2025-09-04");
    EXPECT_EQ(iso_date("Thu, 04 Sep 2025 10:00:00 GMT"), "2025-09-04");
    // Slashed, where only one of the numbers can be the month.
    EXPECT_EQ(iso_date("2/24/2026"), "2026-02-24");
    EXPECT_EQ(iso_date("24/2/2026"), "2026-02-24");
}

TEST(IsoDate, RefusesWhatIsNotADate) {
    EXPECT_EQ(iso_date(""), std::nullopt);
    EXPECT_EQ(iso_date("yesterday"), std::nullopt);
    EXPECT_EQ(iso_date("1985-01-01"), std::nullopt);  // before 1990
    EXPECT_EQ(iso_date("2025-13-01"), std::nullopt);
    EXPECT_EQ(iso_date("May the fourth"), std::nullopt);
    EXPECT_EQ(iso_date("123456789"), std::nullopt);
    EXPECT_EQ(iso_date("3/4/2025"), std::nullopt);  // March 4 or April 3: a country's habit
    EXPECT_EQ(iso_date("24/24/2025"), std::nullopt);
    EXPECT_EQ(iso_date("2/24/20261"), std::nullopt);
}

TEST(AuthorNames, DropsByDatesPlacesAndDegrees) {
    EXPECT_EQ(author_names("By Jane Doe"), Names{"Jane Doe"});
    EXPECT_EQ(author_names("Written by Jane Doe | March 4, 2025"), Names{"Jane Doe"});
    EXPECT_EQ(author_names("Author: Jane Doe on 4 March 2025"), Names{"Jane Doe"});
    EXPECT_EQ(author_names("Dylan Bailey, MS, RD, FAND"), Names{"Dylan Bailey"});
    EXPECT_EQ(author_names("Genevieve Carlton, Ph.D."), Names{"Genevieve Carlton"});
}

TEST(AuthorNames, SplitsSeveralNamesAndRefusesWhatIsNoName) {
    EXPECT_EQ(author_names("Jane Doe, John Roe and Ann Poe"), (Names{"Jane Doe", "John Roe", "Ann Poe"}));
    EXPECT_EQ(author_names("by Jane Doe & John Roe"), (Names{"Jane Doe", "John Roe"}));
    EXPECT_EQ(author_names("Jane Doe; jane doe"), Names{"Jane Doe"});
    EXPECT_TRUE(author_names("https://news.example/authors/jane").empty());
    EXPECT_TRUE(author_names("jane@example.org").empty());
    EXPECT_TRUE(author_names("A note about gardening with many more words than a name").empty());
    EXPECT_TRUE(author_names("Posted in Gardening").empty());
    EXPECT_EQ(author_names("Written byDan Roe\nSenior Reporter"), Names{"Dan Roe"});
    EXPECT_EQ(author_names("CM\n  Cal Moss\n  Last updated"), Names{"Cal Moss"});  // initials, then the name
    EXPECT_EQ(author_names("by user4821 \xC2\xBB Tue Aug 27, 2019 1:47 am"), Names{"user4821"});
    EXPECT_EQ(author_names("Newsdesk news@paper.example"), Names{"Newsdesk"});
    // A bracket the name opened is part of it; a line that starts "and"
    // goes on with the names of the line before.
    EXPECT_EQ(author_names("Jean-Luc Roe (JLR)"), Names{"Jean-Luc Roe (JLR)"});
    EXPECT_EQ(author_names("Lance Poe (Content Manager),"), Names{"Lance Poe (Content Manager)"});
    EXPECT_EQ(author_names("Mark Roe\n\t\n\t\t and Jonas Poe\nStaff"), (Names{"Mark Roe", "Jonas Poe"}));
    EXPECT_EQ(author_names("Mark Roe\n& Jonas Poe"), (Names{"Mark Roe", "Jonas Poe"}));
    // A sign is no letter: a heading's permalink mark is no name.
    EXPECT_TRUE(author_names("\xC2\xA7").empty());
    EXPECT_TRUE(author_names("\xE2\x86\x92 \xE2\x80\xA2").empty());
    EXPECT_EQ(author_names("Zo\xC3\xAB \xC3\x85se"), Names{"Zo\xC3\xAB \xC3\x85se"});
    EXPECT_EQ(author_names("\xE7\x8E\x8B\xE4\xBC\x9F"), Names{"\xE7\x8E\x8B\xE4\xBC\x9F"});
}

TEST(AuthorNames, ALineMarkedByComesFirstAndLabelsOrTimesAreNoNames) {
    EXPECT_EQ(author_names("Post\n\tby jdoe42 \xC2\xBB 11. Sep 2024, 18:36"), Names{"jdoe42"});
    EXPECT_EQ(author_names("Jane Doe\nReviewed by Ann Lee"), Names{"Jane Doe"});  // a reviewer is not marked so
    EXPECT_TRUE(author_names("Topic Author").empty());
    EXPECT_TRUE(author_names("Sun Dec 17, 2023 11:23 am").empty());
    // A template's placeholder or default account, a reading time, a brand's line.
    for (const char* no_name : {"undefined", "admin", "Webmaster", "3 min read", "The State University \xC2\xA9",
                                "Websites by Acme\xC2\xAE"}) {
        EXPECT_TRUE(author_names(no_name).empty()) << no_name;
    }
    EXPECT_EQ(author_names("By Jane Doe | 3 min read"), Names{"Jane Doe"});
}

TEST(AuthorNames, ADateBeforeTheNamesOrGluedToThemIsNoName) {
    EXPECT_EQ(author_names("Dec. 19, 2025 \xC2\xB7 Jane Doe on behalf of the team"), Names{"Jane Doe"});
    EXPECT_EQ(author_names("March 4, 2025 - Jane Doe"), Names{"Jane Doe"});
    EXPECT_TRUE(author_names("Sat, 20 Dec, 2025 - 06:36").empty());
    EXPECT_TRUE(author_names("[Submitted on 18 Dec 2025]").empty());
    EXPECT_TRUE(author_names("About the Author").empty());
    EXPECT_EQ(author_names("By Jane DoePublished on July 18, 2025"), Names{"Jane Doe"});
    EXPECT_EQ(author_names("ByJane Doe"), Names{"Jane Doe"});
    EXPECT_EQ(author_names("Byron Smith"), Names{"Byron Smith"});
    EXPECT_EQ(author_names("BY JANE DOE"), Names{"JANE DOE"});
}

TEST(AuthorsAndDates, TheBylineFoundInThePageIsReadLineByLine) {
    // Readability's byline is the element's text as it is; its names are
    // read from its lines, which the page's elements make.
    const std::string page = "<html><body><article><h1>Rivers build land</h1>"
                             "<div class=byline><p>Jane Doe</p><p>Staff Writer</p></div><p>" +
                             std::string(200, 'x') + " Deltas grow where rivers drop their sediment.</p>"
                             "</article></body></html>";
    ExtractOptions options;
    options.page_type = PageType::article;
    const Article article = extract(page, options);
    EXPECT_EQ(article.byline, "Jane DoeStaff Writer");
    EXPECT_EQ(article.authors, Names{"Jane Doe"});
    EXPECT_EQ(article.metadata_sources.authors, "byline");
}

TEST(AuthorsAndDates, AThreadsFirstPosterAsForumsMarkIt) {
    // The posting's itemprop=author first, wherever it is; then data-author;
    // then a user's class.
    AuthorsAndDates found = read_page("", R"(<div class="post"><span class="username">reader9</span></div>)"
                                          R"(<article data-author="replier_7"></article>)"
                                          R"(<div itemscope itemtype="https://schema.org/DiscussionForumPosting">)"
                                          R"(<div itemprop="author" itemscope itemtype="https://schema.org/Person">)"
                                          R"(<span itemprop="name">Poster One</span></div></div>)");
    ASSERT_TRUE(found.first_poster);
    EXPECT_EQ(found.first_poster->value, "Poster One");
    EXPECT_EQ(found.first_poster->source, "itemprop author");
    found = read_page("", R"(<span class="username">reader9</span><article data-author="starter_42"></article>)");
    ASSERT_TRUE(found.first_poster);
    EXPECT_EQ(found.first_poster->value, "starter_42");
    EXPECT_EQ(found.first_poster->source, "data-author");
    found = read_page("", R"(<p class="authorship">not a user</p><a class="post-author is-op">starter_42</a>)");
    ASSERT_TRUE(found.first_poster);
    EXPECT_EQ(found.first_poster->value, "starter_42");
    EXPECT_EQ(found.first_poster->source, "user class");
    found = read_page("", R"(<div class="PostUser"><h3 class="PostUser-name">starter_42</h3></div>)");
    ASSERT_TRUE(found.first_poster);
    EXPECT_EQ(found.first_poster->value, "starter_42");
    EXPECT_FALSE(read_page("", "<p>No poster here</p>").first_poster);
}

TEST(AuthorsAndDates, AReplysAuthorIsNotTheThreads) {
    // A schema.org Comment or Answer is a reply: its itemprop=author posted
    // the reply, and the thread's starter is marked otherwise.
    for (const std::string_view reply : {"Comment", "Answer"}) {
        const AuthorsAndDates found = read_page(
            "", R"(<article class="message" data-author="starter_42"><p>The question</p></article>)"
                R"(<article itemscope itemtype="https://schema.org/)" + std::string(reply) + R"(">)"
                R"(<div itemprop="author" itemscope><span itemprop="name">replier_7</span></div></article>)");
        ASSERT_TRUE(found.first_poster) << reply;
        EXPECT_EQ(found.first_poster->value, "starter_42") << reply;
    }
}

// A two-post thread whose posts forum software marks with data-author; the
// starter's post opens with `quoted` (a quote of an older post, say).
std::string telescope_thread(std::string_view quoted = "") {
    return "<html><body><h1>Which telescope first?</h1><div class=\"thread\">"
           "<article class=\"message\" data-author=\"starter_42\"><div class=\"message-body\">" +
           std::string(quoted) + "<p>" + std::string(60, 'x') +
           " I am new to astronomy and would like advice on a first telescope to buy.</p></div></article>"
           "<article class=\"message\" data-author=\"helper\"><div class=\"message-body\"><p>Start with "
           "binoculars, then a small dobsonian reflector; it shows the most for the money spent.</p></div>"
           "</article></div></body></html>";
}

Article extract_as(const std::string& html, PageType type) {
    ExtractOptions options;
    options.page_type = type;
    return extract(html, options);
}

TEST(AuthorsAndDates, TheFirstPosterIsTheAuthorOfAForumThreadOnly) {
    const std::string thread = telescope_thread();
    const Article article = extract_as(thread, PageType::forum);
    EXPECT_EQ(article.authors, Names{"starter_42"});
    EXPECT_EQ(article.metadata_sources.authors, "data-author");
    EXPECT_TRUE(extract_as(thread, PageType::article).authors.empty());
}

TEST(AuthorsAndDates, AThreadsMarkedStarterComesBeforeABylineFoundInItsPosts) {
    // The byline a thread's posts show is any poster's, often a quoted one's;
    // the starter as the forum marks it is the thread's author.
    const std::string thread =
        telescope_thread("<blockquote><div class=\"byline\">Quoted Person</div>An old answer, quoted.</blockquote>");
    const Article article = extract_as(thread, PageType::forum);
    EXPECT_EQ(article.authors, Names{"starter_42"});
    EXPECT_EQ(article.metadata_sources.authors, "data-author");
    EXPECT_EQ(extract_as(thread, PageType::article).authors, Names{"Quoted Person"});
}

TEST(AuthorsAndDates, TheSitesNameAsAuthorGivesWayToAPersonAndIsNoneOnPagesWithoutAnAuthor) {
    const auto page = [](const std::string& rel_author) {
        return "<html><head><meta property=\"og:site_name\" content=\"Delta Works\">"
               "<meta name=\"author\" content=\"Delta Works\"></head><body><h1>Deltas</h1><p>" +
               std::string(80, 'x') + " Deltas grow where rivers drop their sediment.</p>" + rel_author +
               "</body></html>";
    };
    ExtractOptions options;
    options.page_type = PageType::article;
    // A company's blog or a personal site may sign with its own name...
    Article article = extract(page(""), options);
    EXPECT_EQ(article.authors, Names{"Delta Works"});
    EXPECT_EQ(article.metadata_sources.authors, "meta author");
    // ...but a person a later source names wrote the article.
    article = extract(page("<a rel=\"author\" href=\"/jane\">Jane Doe</a>"), options);
    EXPECT_EQ(article.authors, Names{"Jane Doe"});
    EXPECT_EQ(article.metadata_sources.authors, "rel=author");
    EXPECT_EQ(extract(page("<a rel=\"author\" href=\"/more\">View more posts</a>"), options).authors,
              Names{"Delta Works"});
    // So does one the template shows unmarked, on a page that marks its date.
    const std::string dated = "<html><head><meta property=\"og:site_name\" content=\"Delta Works\">"
                              "<meta name=\"author\" content=\"Delta Works\">"
                              "<meta property=\"article:published_time\" content=\"2025-03-04\"></head><body>"
                              "<h1>Deltas</h1><div class=\"post__author\">Jane Doe</div><p>" +
                              std::string(80, 'x') + " Deltas grow where rivers drop their sediment.</p></body></html>";
    article = extract(dated, options);
    EXPECT_EQ(article.authors, Names{"Jane Doe"});
    EXPECT_EQ(article.metadata_sources.authors, "author box");
    EXPECT_EQ(article.published_time, "2025-03-04");
    // A documentation page, a listing or a product has no author of its own.
    for (const PageType type : {PageType::documentation, PageType::listing, PageType::product}) {
        options.page_type = type;
        article = extract(page(""), options);
        EXPECT_TRUE(article.authors.empty()) << page_type_name(type);
        EXPECT_FALSE(article.metadata_sources.authors) << page_type_name(type);
    }
}

TEST(AuthorsAndDates, RelAuthorLinksNamingSeveralPeopleSignAListingsPostsNotThePage) {
    const auto page = [](const std::string& links) {
        return "<html><body><h1>Latest posts</h1><p>" + std::string(80, 'x') +
               " The newest writing from our contributors, a few lines of each.</p>" + links + "</body></html>";
    };
    const std::string two_posts = "<div><h2>Rivers</h2><a rel=\"author\" href=\"/jane\">Jane Doe</a></div>"
                                  "<div><h2>Deltas</h2><a rel=\"author\" href=\"/john\">John Roe</a></div>";
    ExtractOptions options;
    for (const PageType type : {PageType::listing, PageType::collection, PageType::service}) {
        options.page_type = type;
        const Article article = extract(page(two_posts), options);
        EXPECT_TRUE(article.authors.empty()) << page_type_name(type);
        EXPECT_FALSE(article.metadata_sources.authors) << page_type_name(type);
        // One person linked as the author still is the page's.
        EXPECT_EQ(extract(page("<a rel=\"author\" href=\"/jane\">Jane Doe</a>"), options).authors,
                  Names{"Jane Doe"}) << page_type_name(type);
    }
    // An article keeps the author its first rel=author link names (Readability's byline).
    options.page_type = PageType::article;
    EXPECT_EQ(extract(page(two_posts), options).authors, Names{"Jane Doe"});
}

TEST(AuthorsAndDates, AProductOrServicePageHasNoBylineOrJsonLdAuthor) {
    const std::string page =
        "<html><head><meta name=\"author\" content=\"Shop Team\">"
        "<script type=\"application/ld+json\">{\"@type\":\"Article\",\"author\":\"Rev Iewer\"}</script>"
        "</head><body><h1>Walnut desk</h1><p class=\"byline\">By Jane Doe</p><p>" +
        std::string(80, 'x') + " A solid walnut desk with two drawers, made to order in our workshop.</p>"
        "</body></html>";
    ExtractOptions options;
    options.disable_json_ld = false;
    for (const PageType type : {PageType::product, PageType::service, PageType::listing, PageType::collection}) {
        options.page_type = type;
        const Article article = extract(page, options);
        EXPECT_EQ(article.authors, Names{"Shop Team"}) << page_type_name(type);  // the <meta> tag speaks for the page
    }
    options.page_type = PageType::article;
    EXPECT_EQ(extract(page, options).authors, Names{"Rev Iewer"});
}

TEST(AuthorsAndDates, TheFirstTimeOutsideCommentsDatesAnArticleOrAThreadLast) {
    const AuthorsAndDates found =
        read_page("", R"(<div class="comments"><time datetime="2025-01-01">Jan 1</time></div>)"
                      R"(<time datetime="2024-05-06T10:00:00Z">May 6</time>)");
    ASSERT_TRUE(found.first_time);
    EXPECT_EQ(found.first_time->value, "2024-05-06T10:00:00Z");
    EXPECT_FALSE(found.published);  // it waits for the page's type
    const std::string page = "<html><body><h1>Which telescope?</h1><p>" + std::string(80, 'x') +
                             " Asked <time datetime=\"2024-05-06\">in May</time>, about a first telescope.</p>"
                             "</body></html>";
    ExtractOptions options;
    options.page_type = PageType::forum;
    EXPECT_EQ(extract(page, options).published_time, "2024-05-06");
    options.page_type = PageType::listing;
    EXPECT_FALSE(extract(page, options).published_time);
}

TEST(AuthorsAndDates, ADateJustAboveTheHeadlineDatesAnArticleLast) {
    const std::string filler(400, 'y');
    const std::string page = "<html><body><p>Copyright 2019 " + filler + "</p><p>Science \xC2\xB7 March 4, 2025</p>"
                             "<h1>Rivers build land</h1><p>" + std::string(80, 'x') +
                             " Deltas grow where rivers drop their sediment into the sea.</p></body></html>";
    EXPECT_EQ(read_page("", "<p>March 4, 2025</p><h1>Rivers</h1>").date_before_headline->value, "2025-03-04");
    expect_dated_as_an_article_only(page, "2025-03-04", "text before the headline", PageType::product);
}

TEST(AuthorsAndDates, AnElementNamedAsADateDatesAnArticleOrAThreadLastOfAll) {
    const std::string filler(450, 'x');
    EXPECT_EQ(read_page("", "<h1>Rivers</h1><p>" + filler + "</p><div class=entry-meta><span class=post-date>"
                            "Published on March 2, 2025</span></div>").date_element->value, "2025-03-02");
    // Not an update's, not a comment's, not a long text that mentions one.
    EXPECT_FALSE(read_page("", "<span class=post-date>Updated March 2, 2025</span>").date_element);
    EXPECT_FALSE(read_page("", "<p class=date>Last updated on Tuesday, March 2, 2025 10:30</p>").date_element);
    EXPECT_FALSE(read_page("", "<div class=comments><span class=date>March 2, 2025</span></div>").date_element);
    EXPECT_FALSE(read_page("", "<p class=dateline>On March 2, 2025 the river rose over its banks and the town "
                               "moved uphill for good.</p>").date_element);
    const std::string page = "<html><body><h1>Rivers build land</h1><p>" + filler + "</p><p>" +
                             std::string(80, 'y') + " Deltas grow where rivers drop their sediment.</p>"
                             "<div class=article__date>Sep 27, 2024</div></body></html>";
    expect_dated_as_an_article_only(page, "2024-09-27", "element named as a date", PageType::service);
}

TEST(AuthorsAndDates, AnAuthorShownByALinkToTheirPageOrAfterALabel) {
    AuthorsAndDates found = read_page("", R"(<a href="/authors/jane-doe">Jane Doe</a>)"
                                          R"(<p>Written by</p><p>John Roe</p>)");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "Jane Doe");
    EXPECT_EQ(found.shown_author->source, "author link");
    found = read_page("", R"(<a href="/authors/">All our authors</a><div><span>By:</span><span>John Roe</span></div>)");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "John Roe");
    EXPECT_EQ(found.shown_author->source, "author label");
    // The label's name may follow it in the same element.
    found = read_page("", R"(<div><strong>Contributors:</strong> Janet Roe </div><p>Text.</p>)");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "Janet Roe");
    EXPECT_EQ(found.shown_author->source, "author label");
    found = read_page("", R"(<h1>A story</h1><p>Mar 24, 2025 By Jane Doe</p><p>By the way, by Ann Lee</p>)");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "Jane Doe");
    EXPECT_EQ(found.shown_author->source, "by line");
    found = read_page("", R"(<h1>A story</h1><p>Written by: Jane van Doe | 5 min read</p>)");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "Jane van Doe");
    // The name ends with its element: a role or a date after it, run
    // together in the page's text, is not part of it; nor is a full stop or
    // a word templates write after a name.
    for (const char* byline : {"<div><span>By Jane Doe</span><span>Staff Writer</span></div>",
                               "<p>By Jane Doe. Photos by Ann Lee</p>", "<p>By Jane Doe Updated March 4, 2025</p>"}) {
        found = read_page("", std::string("<h1>A story</h1>") + byline);
        ASSERT_TRUE(found.shown_author) << byline;
        EXPECT_EQ(found.shown_author->value, "Jane Doe") << byline;
    }
    // Not a byline: words before "by", one name only, before the headline.
    EXPECT_FALSE(read_page("", R"(<h1>A story</h1><p>Photos by Jane Doe</p><p>By Jane</p>)").shown_author);
    EXPECT_FALSE(read_page("", R"(<p>By Jane Doe</p><h1>A story</h1>)").shown_author);
    // Not a name: one word, a phrase with digits, lower case.
    EXPECT_FALSE(read_page("", R"(<a href="/author/admin">admin</a><p>By</p><p>Team 42 Staff</p>)").shown_author);
}

TEST(AuthorsAndDates, ABylineWithoutByAHandleAndAnAuthorBox) {
    // A name and a date on one short line after the headline, in parts.
    AuthorsAndDates found =
        read_page("", "<h1>AI in care</h1><p>Aaron Roe | Senior Writer | July 2, 2025</p><p>Text.</p>");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "Aaron Roe");
    EXPECT_EQ(found.shown_author->source, "name beside a date");
    found = read_page("", "<h1>AI in care</h1><div><p>Luke Kim</p><small>December 17, 2025</small></div>");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "Luke Kim");
    // No date beside it, or no full name: no byline.
    EXPECT_FALSE(read_page("", "<h1>AI in care</h1><p>Aaron Roe | Senior Writer</p>").shown_author);
    EXPECT_FALSE(read_page("", "<h1>AI in care</h1><p>Home | News | July 2, 2025</p>").shown_author);

    // A member's handle alone after "by"; a capitalised word alone or a
    // placeholder is none.
    found = read_page("", "<h1>Tides</h1><p>by jdoe_42</p><p>Text.</p>");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "jdoe_42");
    EXPECT_EQ(found.shown_author->source, "by line");
    EXPECT_FALSE(read_page("", "<h1>Tides</h1><p>by admin</p>").shown_author);
    EXPECT_FALSE(read_page("", "<h1>Tides</h1><p>By Design</p>").shown_author);

    // A full name in a box whose class names an author, not in comments and
    // not the box's heading.
    found = read_page("", R"(<h1>Tides</h1><div class="blog_author-box"><div class="blog_author-text">)"
                          R"(<h3>About The Author</h3><div>Lauren Roe</div>)"
                          R"(<p>Lauren writes about the sea.</p></div></div>)");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "Lauren Roe");
    EXPECT_EQ(found.shown_author->source, "author box");
    EXPECT_FALSE(
        read_page("", R"(<div class="comments"><div class="comment-author">Ann Poe</div></div>)").shown_author);
    EXPECT_FALSE(read_page("", R"(<div class="authority"><span>Ann Poe</span></div>)").shown_author);
}

TEST(AuthorsAndDates, ATemplatesIndentationDoesNotMakeABylineLong) {
    const std::string indent(40, ' ');
    const AuthorsAndDates found = read_page("", "<h1>Home gyms</h1><div class=\"meta\">\n" + indent + "by\n" + indent +
                                                    "<span>Jane Doe</span>\n" + indent + "on\n" + indent +
                                                    "<span>Jan 22, 2025</span>\n" + indent + "</div><p>Text.</p>");
    ASSERT_TRUE(found.shown_author);
    EXPECT_EQ(found.shown_author->value, "Jane Doe");
    EXPECT_EQ(found.shown_author->source, "by line");
}

TEST(AuthorsAndDates, TheArticlesJsonLdComesFirstWhereverItIs) {
    const AuthorsAndDates found = read_page(
        R"(<script type="application/ld+json">{"@context":"https://schema.org","@graph":[)"
        R"({"@type":"WebPage","datePublished":"2020-01-01"},)"
        R"({"@type":["NewsArticle"],"author":[{"@type":"Person","name":"Jane Doe"},"John Roe"],)"
        R"("datePublished":"2025-09-04T08:00:00Z","dateModified":"2025-09-05"}]}</script>)"
        R"(<meta name="author" content="Someone Else">)"
        R"(<meta property="article:published_time" content="2024-01-01">)");
    EXPECT_EQ(found.authors, (Names{"Jane Doe", "John Roe"}));
    EXPECT_EQ(found.authors_source, "json-ld");
    ASSERT_TRUE(found.published && found.modified);
    EXPECT_EQ(found.published->value, "2025-09-04T08:00:00Z");
    EXPECT_EQ(found.published->source, "json-ld");
    EXPECT_EQ(found.modified->value, "2025-09-05");
}

TEST(AuthorsAndDates, AJsonLdScriptWithRawLineBreaksInItsStringsIsRead) {
    const AuthorsAndDates found =
        read_page("<script type=\"application/ld+json\">{\"@type\":\"DiscussionForumPosting\",\n"
                  "\"text\":\"The first line\nand the second\",\t\"author\":{\"name\":\"Jane Doe\"},"
                  "\"datePublished\":\"2024-02-21 13:00:00\"}</script>");
    EXPECT_EQ(found.authors, Names{"Jane Doe"});
    EXPECT_EQ(found.authors_source, "json-ld");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value.substr(0, 10), "2024-02-21");
    EXPECT_TRUE(read_page("<script type=\"application/ld+json\">{\"author\": broken</script>").authors.empty());
}

TEST(AuthorsAndDates, ASharingCardsWriterIsTheLastResortOfAnArticle) {
    // SEO plugins label the card's fields: twitter:label1 "Written by",
    // twitter:data1 the name. Another label's data is no author.
    const std::string page = "<html><head><meta name=\"twitter:label2\" content=\"Est. reading time\">"
                             "<meta name=\"twitter:data2\" content=\"4 minutes\">"
                             "<meta name=\"twitter:label1\" content=\"Written by\">"
                             "<meta name=\"twitter:data1\" content=\"Jane Doe\"></head><body><h1>Deltas</h1><p>" +
                             std::string(80, 'x') + " Deltas grow where rivers drop their sediment.</p></body></html>";
    ExtractOptions options;
    options.page_type = PageType::article;
    const Article article = extract(page, options);
    EXPECT_EQ(article.authors, Names{"Jane Doe"});
    EXPECT_EQ(article.metadata_sources.authors, "meta twitter:data (labelled as the writer)");
    options.page_type = PageType::service;  // a card there speaks for a page without an author
    EXPECT_TRUE(extract(page, options).authors.empty());
    std::string unlabelled = page;
    unlabelled.replace(unlabelled.find("Written by"), 10, "Price");
    options.page_type = PageType::article;
    EXPECT_TRUE(extract(unlabelled, options).authors.empty());
}

TEST(AuthorsAndDates, AReplysDateIsNotThePagesAndAQuestionsCreationIs) {
    // A Q&A page: the question's dateCreated, then answers with their own
    // datePublished, as <meta> and as elements, and a review's date.
    const AuthorsAndDates found = read_page(
        "", R"(<div itemscope itemtype="https://schema.org/Question"><h1>Why?</h1>)"
            R"(<time itemprop="dateCreated" datetime="2014-02-04 13:02:51Z">12 years ago</time>)"
            R"(<div itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer">)"
            R"(<meta itemprop="datePublished" content="2018-05-21"><meta itemprop="dateModified" content="2019-01-02">)"
            R"(</div><div itemscope itemtype="https://schema.org/Answer">)"
            R"(<span itemprop="datePublished">2016-03-17</span></div></div>)"
            R"(<div itemscope itemtype="https://schema.org/Review"><span itemprop="datePublished">2020-01-01</span>)"
            R"(</div>)");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value.substr(0, 10), "2014-02-04");
    EXPECT_EQ(found.published->source, "itemprop dateCreated");
    EXPECT_FALSE(found.modified);
    // Outside a reply, a <meta itemprop> still dates the page.
    const AuthorsAndDates article = read_page(
        "", R"(<article itemscope itemtype="https://schema.org/BlogPosting">)"
            R"(<meta itemprop="datePublished" content="2025-03-02"></article>)");
    ASSERT_TRUE(article.published);
    EXPECT_EQ(article.published->value, "2025-03-02");
}

TEST(AuthorsAndDates, MetaTagsThenMarkedElementsThenTheUrl) {
    AuthorsAndDates found = read_page(R"(<meta name="author" content="By Jane Doe">)"
                                      R"(<meta name="date" content="2023-02-01">)"
                                      R"(<meta property="article:published_time" content="2025-09-04">)"
                                      R"(<meta property="article:modified_time" content="2025-09-06T01:02:03Z">)");
    EXPECT_EQ(found.authors, Names{"Jane Doe"});
    EXPECT_EQ(found.authors_source, "meta author");
    ASSERT_TRUE(found.published && found.modified);
    EXPECT_EQ(found.published->value, "2025-09-04");  // the more trusted key, though later
    EXPECT_EQ(found.published->source, "meta article:published_time");
    EXPECT_EQ(found.modified->value, "2025-09-06T01:02:03Z");

    found = read_page("", R"(<p>Posted <time itemprop="datePublished" datetime="2025-03-02">March 2</time></p>)"
                          R"(<a rel="author" href="/jane">Jane Doe</a>)",
                      "https://news.example/2024/01/01/story");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2025-03-02");
    EXPECT_EQ(found.published->source, "itemprop datePublished");
    EXPECT_EQ(found.rel_authors, Names{"Jane Doe"});
    EXPECT_TRUE(found.authors.empty());  // rel=author waits for the byline

    found = read_page("", "<p>No date marked; 4 March 2025 in the text.</p>", "https://news.example/2024/01/31/story");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2024-01-31");
    EXPECT_EQ(found.published->source, "url");
    EXPECT_FALSE(found.modified);

    found = read_page("", "<p>Copyright 2024. Comments: 4 March 2025.</p>", "https://news.example/story");
    EXPECT_FALSE(found.published);
}

// A permalink's date is the site's own day. A post written late in the
// evening, in a time zone behind UTC, has a UTC timestamp on the next day;
// one written early in the morning ahead of UTC, on the day before. Either
// gives way to the permalink's day.
TEST(AuthorsAndDates, APermalinksDayWinsOverATimestampADayOff) {
    const std::string evening = R"(<meta property="article:published_time" content="2025-12-19T03:05:00+00:00">)";
    AuthorsAndDates found = read_page(evening, "", "https://blog.example/2025/12/18/deltas/");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2025-12-18");
    EXPECT_EQ(found.published->source, "url (meta article:published_time is a day off)");

    found = read_page(R"(<meta property="article:published_time" content="2025-12-17T22:00:00Z">)", "",
                      "https://blog.example/2025/12/18/deltas/");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2025-12-18");

    // Two days off, or a date without a time, is another date: the marked one stays.
    for (const std::string_view marked : {"2025-12-20T03:05:00Z", "2025-12-19"}) {
        found = read_page(R"(<meta property="article:published_time" content=")" + std::string(marked) + R"(">)", "",
                          "https://blog.example/2025/12/18/deltas/");
        ASSERT_TRUE(found.published);
        EXPECT_EQ(found.published->value, marked);
    }
    found = read_page(evening, "", "https://blog.example/2025/12/31/deltas/");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2025-12-19T03:05:00+00:00");
    found = read_page(R"(<meta property="article:published_time" content="2026-01-01T03:05:00Z">)", "",
                      "https://blog.example/2025/12/31/deltas/");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2025-12-31") << "across a year's end";
}

TEST(AuthorsAndDates, RepeatedAuthorTagsAddTheirNamesAndCitationsReadLastFirst) {
    AuthorsAndDates found = read_page(R"(<meta name="citation_author" content="Roy, Aniruddha">)"
                                      R"(<meta name="citation_author" content="Patel, Jyoti">)"
                                      R"(<meta name="citation_date" content="2025/12/18">)");
    EXPECT_EQ(found.authors, (Names{"Aniruddha Roy", "Jyoti Patel"}));
    EXPECT_EQ(found.authors_source, "meta citation_author");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2025-12-18");
    // The most trusted key wins over a repeated less trusted one.
    found = read_page(R"(<meta name="creator" content="Ann Lee"><meta name="author" content="Jane Doe">)"
                      R"(<meta name="author" content="John Roe"><meta name="creator" content="Bo Park">)"
                      R"(<meta property="og:publish_date" content="2024-05-06T08:00:00Z">)");
    EXPECT_EQ(found.authors, (Names{"Jane Doe", "John Roe"}));
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2024-05-06T08:00:00Z");
}

TEST(AuthorsAndDates, ADateWrittenJustAfterTheHeadlineIsTheLastResort) {
    AuthorsAndDates found = read_page("", "<h1>Tides</h1><p class=byline>By Jane Doe <span>&middot;</span> "
                                          "Updated 4th March, 2025</p><p>Text.</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2025-03-04");
    EXPECT_EQ(found.date_after_headline->source, "text after the headline");

    found = read_page(R"(<meta property="article:published_time" content="2024-12-01">)",
                      "<h1>Tides</h1><p>March 4, 2025</p>");
    ASSERT_TRUE(found.published);
    EXPECT_EQ(found.published->value, "2024-12-01");  // what the page marks wins
    EXPECT_FALSE(found.date_after_headline);

    // An update's date, or a member's joining, is passed over for a date
    // that follows it; an update's is taken when no other date follows.
    found = read_page("", "<h1>Tides</h1><p>Updated Jan 8, 2026</p><p>Published 5 July 2021</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2021-07-05");
    found = read_page("", "<h1>Tides</h1><p>Last updated on: 8 January 2026</p><p>Text.</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2026-01-08");
    found = read_page("", "<h1>Tides?</h1><dl><dt>Joined</dt><dd>Nov 4, 2011</dd></dl><p>Asked Dec 19, 2025</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2025-12-19");
    EXPECT_FALSE(read_page("", "<h1>Tides?</h1><p>Member since Nov 4, 2011</p>").date_after_headline);

    // In digits, year first: ISO's dashes, slashes or dots; a longer number
    // is no date.
    for (const std::string_view shown : {"2025-12-17", "2025/12/17", "2025.12.17"}) {
        found = read_page("", "<h1>Tides</h1><p>Essay - Published: " + std::string(shown) + "</p>");
        ASSERT_TRUE(found.date_after_headline) << shown;
        EXPECT_EQ(found.date_after_headline->value, "2025-12-17");
    }
    EXPECT_FALSE(read_page("", "<h1>Tides</h1><p>Build 2025.12.171 notes</p>").date_after_headline);

    // Day first with dots; slashed where a number over 12 shows which is the
    // day, or where another slashed date of the window shows it; never the
    // end of a longer run of numbers.
    for (const std::string_view shown : {"17.12.2025", "17/12/2025", "12/17/2025"}) {
        found = read_page("", "<h1>Tides</h1><p>Jane Doe " + std::string(shown) + " &middot; 6 min read</p>");
        ASSERT_TRUE(found.date_after_headline) << shown;
        EXPECT_EQ(found.date_after_headline->value, "2025-12-17");
    }
    found = read_page("", "<h1>Tides</h1><p>Jane Doe</p><p>8/1/2025</p><p>8/27/2025</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2025-08-01");
    found = read_page("", "<h1>Tides</h1><p>Jane Doe</p><p>1/8/2025</p><p>27/8/2025</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2025-08-01");
    found = read_page("", "<h1>Tides</h1><p>Jane Doe 3/4/2025</p><p>Text.</p>");
    EXPECT_FALSE(found.date_after_headline);
    EXPECT_FALSE(read_page("", "<h1>Tides</h1><p>Version 2.17.12.2025 out</p>").date_after_headline);

    // A thread's latest post is passed over like an update; an offer's end
    // is no publication's date.
    found = read_page("", "<h1>Tides?</h1><p>13 answers / Last post: 01/12/2025</p><p>Sam 28/11/2025</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2025-11-28");
    EXPECT_FALSE(read_page("", "<h1>Tides</h1><p>This price is valid through 01/23/2026.</p>").date_after_headline);

    // On a page with no <h1>, the headline is its first <h2>.
    found = read_page("", "<p>Menu</p><h2>Tides?</h2><p>by sam &raquo; Sun Dec 17, 2023 11:18 am</p>"
                          "<h2>Re: Tides?</h2><p>by jo &raquo; Mon Dec 18, 2023 9:02 am</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2023-12-17");
    found = read_page("", "<h2>Latest</h2><p>4 March 2025</p><h1>Tides</h1><p>5 March 2025</p>");
    ASSERT_TRUE(found.date_after_headline);
    EXPECT_EQ(found.date_after_headline->value, "2025-03-05");

    // Only the first 400 bytes after the headline, and never before it.
    found = read_page("", "<p>March 4, 2025</p><h1>Tides</h1><p>" + std::string(450, 'x') + "</p><p>March 5, 2025</p>");
    EXPECT_FALSE(found.date_after_headline);

    // It dates an article, a thread or a documentation page; on a listing,
    // a product, a collection or a service page it is an item's date.
    const std::string page = "<html><body><h1>Tides</h1><p>Published March 4, 2025</p><p>" + std::string(80, 'x') +
                             " The sea rises and falls twice a day.</p></body></html>";
    ExtractOptions options;
    for (const PageType type : {PageType::article, PageType::forum, PageType::documentation}) {
        options.page_type = type;
        const Article article = extract(page, options);
        EXPECT_EQ(article.published_time, "2025-03-04") << page_type_name(type);
        EXPECT_EQ(article.metadata_sources.published_time, "text after the headline") << page_type_name(type);
    }
    for (const PageType type : {PageType::listing, PageType::product, PageType::collection, PageType::service}) {
        options.page_type = type;
        EXPECT_FALSE(extract(page, options).published_time) << page_type_name(type);
    }
}

TEST(AuthorsAndDates, TheDateShownUnderTheHeadlineCorrectsAJsonLdDateButNotAMetaTag) {
    const auto page = [](const std::string& head) {
        return "<html><head>" + head + "</head><body><h1>Tides</h1><p>Updated March 4, 2025</p><p>" +
               std::string(80, 'x') + " The sea rises and falls twice a day.</p></body></html>";
    };
    const std::string json_ld =
        R"(<script type="application/ld+json">{"@type":"Article","datePublished":"2019-06-01"}</script>)";
    ExtractOptions options;
    options.disable_json_ld = false;
    options.page_type = PageType::article;
    Article article = extract(page(json_ld), options);
    EXPECT_EQ(article.published_time, "2025-03-04");
    EXPECT_EQ(article.metadata_sources.published_time, "text after the headline (json-ld's differs)");
    // On the same day, the JSON-LD's timestamp stays.
    std::string same_day = json_ld;
    same_day.replace(same_day.find("2019-06-01"), 10, "2025-03-04T08:00:00Z");
    EXPECT_EQ(extract(page(same_day), options).published_time, "2025-03-04T08:00:00Z");
    // A <meta> date is not overruled; nor is the JSON-LD on a page without a date of its own.
    article = extract(page(R"(<meta property="article:published_time" content="2019-06-01">)"), options);
    EXPECT_EQ(article.published_time, "2019-06-01");
    options.page_type = PageType::listing;
    EXPECT_EQ(extract(page(json_ld), options).published_time, "2019-06-01");
}

std::string dated_page() {
    return "<html><head><title>Tides | Ocean News</title>"
           R"(<meta property="article:published_time" content="Thu, 04 Sep 2025 08:00:00 GMT">)"
           "</head><body><article><h1>Tides</h1><p class=\"byline\">By Jane Doe and John Roe</p>" +
           std::string(30, ' ') +
           "<p>The sea rises and falls twice a day, pulled by the moon and the sun, and the shore "
           "shows it in bands of weed and shells. Sailors have read these bands for centuries, long "
           "before anyone could say why the water moved at all, and they still do.</p></article></body></html>";
}

TEST(AuthorsAndDates, ReadabilityKeepsItsDateAsWrittenTheOthersGiveIso8601) {
    ExtractOptions options;
    options.strategy = Strategy::readability;
    const Article readability = extract(dated_page(), options);
    EXPECT_EQ(readability.published_time, "Thu, 04 Sep 2025 08:00:00 GMT");
    options.strategy = Strategy::automatic;
    const Article automatic = extract(dated_page(), options);
    EXPECT_EQ(automatic.published_time, "2025-09-04");
    EXPECT_EQ(automatic.metadata_sources.published_time, "meta article:published_time");
    EXPECT_EQ(automatic.title, "Tides");
    EXPECT_EQ(automatic.metadata_sources.title, "h1");
    for (const Article* article : {&readability, &automatic}) {
        EXPECT_EQ(article->authors, (Names{"Jane Doe", "John Roe"}));
        EXPECT_EQ(article->metadata_sources.authors, "byline");
    }
}

}  // namespace
}  // namespace pith::extract
