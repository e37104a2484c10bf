## Общие тексты и меню команд

start =
    .description = Начать и узнать, что умеет бот
balance =
    .description = Баланс и адрес для пополнения
prices =
    .description = Цены на энергию по срокам
system =
    .description = Состояние сервиса и пулов
link =
    .description = Подключить API-ключ
unlink =
    .description = Отключить API-ключ
language =
    .description = Сменить язык
help =
    .description = Как пользоваться ботом
cancel =
    .description = Отменить текущий шаг

duration-seconds = { $count } с
duration-minutes = { $count } мин
duration-hours = { $count } ч

language-name-en = 🇬🇧 English
language-name-ru = 🇷🇺 Русский
language-name-zh = 🇨🇳 中文

not-linked = Этот чат ещё не подключён к аккаунту. Отправьте /link и вставьте API-ключ из личного кабинета.
button-expired = Эта кнопка устарела. Начните заново, пожалуйста.

group-private-only = { $command } работает только в личном чате со мной — ключи и балансы не должны попадать в группу. Нажмите кнопку ниже и отправьте команду там.
group-private-only-short = Это работает только в личном чате с ботом.
group-open-private-button = Открыть личный чат

unhandled-text = Не понял сообщение. Отправьте /help, чтобы увидеть, что я умею.
unhandled-command = Такой команды нет. Список команд — в /help.
