"""The web app names months by their plants (issue 12, item 2; ``referee.cards.month_label``)."""


def test_the_picker_names_each_month_by_its_plant(client, keeper):
    html = client.get(f"/s/{keeper}/round/new").get_data(as_text=True)
    assert 'aria-label="Pine (松, month 1)"' in html
    assert 'aria-label="Paulownia (桐, month 12)"' in html
    assert 'title="month 1"' not in html
