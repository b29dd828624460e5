"""The tournament documents offline, in Chromium with the network cut: after one visit, a section
page never opened, and the offline search of «gioco lento» finds the slow play sections."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.test_offline import visit_once


def test_the_documents_read_and_search_with_no_network(page):
    visit_once(page)
    page.context.set_offline(True)
    try:
        page.goto("/ipg/3.3")
        expect(page.locator("h1")).to_contain_text("IPG 3.3")
        expect(page.locator(".sanzione")).to_contain_text("Warning")
        page.goto("/mtr")
        expect(page.locator("h1")).to_contain_text("MTR")
        page.goto("/cerca?q=gioco lento")
        found = page.locator("#tornei-offline li strong")
        expect(found.first).to_be_visible()
        assert {"IPG 3.3", "MTR 5.5"} <= set(found.all_inner_texts())
        found.filter(has_text="IPG 3.3").click()
        expect(page.locator("h1")).to_contain_text("Slow Play")
    finally:
        page.context.set_offline(False)
